package main

import (
	"io"
	"reflect"
	"testing"
)

// TestMergerShards checks the merge's steps on shards read into memory: a
// resumed shard's runs add up, a bug found by two shards is reported once,
// and packages and tests come in the order one run reports them.
func TestMergerShards(t *testing.T) {
	rep := newReporter(io.Discard, io.Discard, true, false, "random", 1)
	first := runInfo{Shards: 2, By: "schedules", Strategy: "random"}
	m := newMerger(first)
	bug := func(schedule int) jsonBug {
		return jsonBug{Event: "bug", Package: "m/a", Test: "TestB/sub", Key: "k", Schedule: schedule}
	}
	sum := &jsonSummary{ElapsedS: 2, ExploreS: 1}
	s1 := &shardResult{dir: "s1", runs: []*shardRun{
		{tests: []jsonTest{{Package: "m/a", Test: "TestB", Schedules: 3, Resumed: 0}}, bugs: []jsonBug{bug(7)}, summary: sum},
		{resumed: true, tests: []jsonTest{{Package: "m/a", Test: "TestB", Schedules: 4, Resumed: 3, Exhausted: true}, {Package: "m/a", Test: "TestA", Schedules: 2}},
			packages: []jsonPackage{{Package: "m/a", Index: 1, Tests: []string{"TestA", "TestB"}}, {Package: "m/z", Index: 0, Status: "?", Detail: "[no test files]"}},
			messages: []jsonMessage{{Event: "warning", Message: "w"}}, summary: sum},
	}}
	s2 := &shardResult{dir: "s2", runs: []*shardRun{
		{tests: []jsonTest{{Package: "m/a", Test: "TestB", Schedules: 5}}, bugs: []jsonBug{bug(2)},
			messages: []jsonMessage{{Event: "warning", Message: "w"}}},
	}}
	m.addShard(1, s1, rep)
	m.addShard(2, s2, rep)
	b := m.tests["m/a\x00TestB"]
	if b == nil || b.t.Schedules != 12 || b.t.Resumed != 0 || b.shards != 2 || b.exhausted != 1 {
		t.Fatalf("TestB merged: %+v; want 3+4+5 schedules, 2 shards, 1 exhausted", b)
	}
	if len(m.messages) != 1 {
		t.Errorf("messages %+v: want the warning once", m.messages)
	}
	if rep.errors != 1 {
		t.Errorf("%d errors: want one, shard 2 did not finish", rep.errors)
	}
	if want := []string{"1/2 9 schedules in 2s", "2/2 5 schedules in 0s"}; !reflect.DeepEqual(m.perShard, want) {
		t.Errorf("perShard %q, want %q", m.perShard, want)
	}
	byTest := m.dedupBugs()
	if bugs := byTest["m/a\x00TestB"]; len(bugs) != 1 || bugs[0].Schedule != 2 || !b.keys["k"] {
		t.Errorf("bugs %+v: want the one of schedule 2, once", bugs)
	}
	if got := m.packageOrder(); !reflect.DeepEqual(got, []string{"m/z", "m/a"}) {
		t.Errorf("packages %q, want by index", got)
	}
	var order []string
	for _, mt := range m.testOrder("m/a") {
		order = append(order, mt.test)
	}
	if !reflect.DeepEqual(order, []string{"TestB", "TestA"}) {
		t.Errorf("by schedules, tests %q: want shard 1's order", order)
	}
	m.first.By = "tests"
	order = nil
	for _, mt := range m.testOrder("m/a") {
		order = append(order, mt.test)
	}
	if !reflect.DeepEqual(order, []string{"TestA", "TestB"}) {
		t.Errorf("by tests, tests %q: want the package's order", order)
	}
}

func TestIndexShards(t *testing.T) {
	rep := newReporter(io.Discard, io.Discard, true, false, "random", 1)
	one := func(i int) *shardResult { return &shardResult{dir: "d", info: runInfo{Shard: i, Shards: 3, Seed: 1}} }
	if idx, ok := indexShards([]*shardResult{one(1), one(3)}, rep); !ok || len(idx) != 2 || rep.errors != 1 {
		t.Errorf("shards 1 and 3 of 3: %v, %v, %d errors; want them, and shard 2 missing", idx, ok, rep.errors)
	}
	if _, ok := indexShards([]*shardResult{one(1), one(1)}, rep); ok {
		t.Errorf("shard 1 twice merged")
	}
	other := one(2)
	other.info.Seed = 2
	if _, ok := indexShards([]*shardResult{one(1), other}, rep); ok {
		t.Errorf("shards of two seeds merged")
	}
}
