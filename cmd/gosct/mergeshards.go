package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// mergeShards prints the merged report and returns the exit status.
func mergeShards(shards []*shardResult, o *mergeOptions, stdout, stderr io.Writer) int {
	first := shards[0].info
	rep := newReporter(stdout, stderr, o.json, o.verbose, first.Strategy, first.Seed)
	rep.shards = first.Shards
	byIndex, ok := indexShards(shards, rep)
	if !ok {
		return exitError
	}
	m := newMerger(first)
	for i := 1; i <= first.Shards; i++ {
		if s := byIndex[i]; s != nil {
			m.addShard(i, s, rep)
		}
	}
	byTest := m.dedupBugs()
	for _, msg := range m.messages {
		if msg.Package == "" {
			rep.message(msg.Event, msg.Package, msg.Test, msg.Trace, msg.Message)
		}
	}
	for _, name := range m.packageOrder() {
		m.reportPackage(name, byTest, rep)
	}
	rep.summary()
	if !o.json && len(m.perShard) > 1 {
		fmt.Fprintf(stdout, "gosct: shards (by %s): %s\n", first.By, strings.Join(m.perShard, "; "))
	}
	return exitStatus(rep.bugs, rep.errors)
}

// indexShards checks that the shards are parts of one search, each once,
// and reports those missing; false means the merge cannot go on.
func indexShards(shards []*shardResult, rep *reporter) (map[int]*shardResult, bool) {
	first := shards[0].info
	byIndex := map[int]*shardResult{}
	for _, s := range shards {
		if s.info.search() != first.search() {
			rep.message("error", "", "", "", fmt.Sprintf("%s is not a shard of the same search as %s:\n\t%s\n\t%s",
				s.dir, shards[0].dir, s.info.search(), first.search()))
			return nil, false
		}
		if prev := byIndex[s.info.Shard]; prev != nil {
			rep.message("error", "", "", "", fmt.Sprintf("shard %d of %d twice: %s and %s", s.info.Shard, s.info.Shards, prev.dir, s.dir))
			return nil, false
		}
		byIndex[s.info.Shard] = s
	}
	var missing []string
	for i := 1; i <= first.Shards; i++ {
		if byIndex[i] == nil {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		rep.message("error", "", "", "", fmt.Sprintf("shard%s %s of %d missing: the result below covers %d of %d shards",
			plural(len(missing)), strings.Join(missing, ", "), first.Shards, first.Shards-len(missing), first.Shards))
	}
	return byIndex, true
}

// mergedPackage is one package over the shards.
type mergedPackage struct {
	index   int
	tests   []string
	status  string // of a line that is not computed: "?", "[no tests to run]", build failed
	detail  string
	elapsed float64
	seen    bool
}

// merger puts the shards' packages, tests, bugs and messages together, in
// the order one run reports them.
type merger struct {
	first runInfo
	pkgs  map[string]*mergedPackage
	tests map[string]*mergedTest
	// appear is where a test comes in the events of the first shard that
	// explored it: by schedules, shard 1 explores every test, in the
	// order of one run (the test binary's, which the package records do
	// not know).
	appear   map[string]int
	bugs     []jsonBug
	seenMsg  map[string]bool
	messages []jsonMessage
	// perShard is the last line's account of each shard.
	perShard []string
}

func newMerger(first runInfo) *merger {
	return &merger{first: first, pkgs: map[string]*mergedPackage{}, tests: map[string]*mergedTest{},
		appear: map[string]int{}, seenMsg: map[string]bool{}}
}

func (m *merger) pkgOf(name string) *mergedPackage {
	p := m.pkgs[name]
	if p == nil {
		p = &mergedPackage{index: 1 << 30}
		m.pkgs[name] = p
	}
	return p
}

// addShard adds shard i's runs: a resumed shard has several, whose tests'
// schedules add up and whose last run's messages and lines are the
// shard's.
func (m *merger) addShard(i int, s *shardResult, rep *reporter) {
	first := m.first
	if len(s.runs) == 0 || s.runs[len(s.runs)-1].summary == nil {
		rep.message("error", "", "", "", fmt.Sprintf("shard %d of %d (%s) did not finish: its results are partial", i, first.Shards, s.dir))
	}
	last := map[string]jsonTest{}
	var order []string
	runSchedules := map[string]int{}
	shardSchedules, wall, explore := 0, 0.0, 0.0
	for k, run := range s.runs {
		for _, t := range run.tests {
			key := t.Package + "\x00" + t.Test
			if _, ok := last[key]; !ok {
				order = append(order, key)
			}
			runSchedules[key] += t.Schedules
			if prev, ok := last[key]; ok {
				t.Resumed = prev.Resumed
			}
			last[key] = t
		}
		m.bugs = append(m.bugs, run.bugs...)
		if run.summary != nil {
			wall += run.summary.ElapsedS
			explore += run.summary.ExploreS
		}
		if k != len(s.runs)-1 {
			continue // the last run's messages and lines are the shard's
		}
		m.addLast(run)
	}
	rep.wallS = max(rep.wallS, wall)
	rep.mergedExploreS = max(rep.mergedExploreS, explore)
	for k, key := range order {
		if _, ok := m.appear[key]; !ok {
			m.appear[key] = k
		}
		t := last[key]
		t.Schedules = runSchedules[key]
		shardSchedules += t.Schedules
		m.addTest(key, t)
	}
	m.perShard = append(m.perShard, fmt.Sprintf("%d/%d %d schedule%s in %s", i, first.Shards, shardSchedules, plural(shardSchedules), seconds(explore)))
}

// addLast adds the messages and package lines of a shard's last run.
func (m *merger) addLast(run *shardRun) {
	for _, msg := range run.messages {
		if k := msg.Event + "\x00" + msg.Package + "\x00" + msg.Test + "\x00" + msg.Message; !m.seenMsg[k] {
			m.seenMsg[k] = true
			m.messages = append(m.messages, msg)
		}
	}
	for _, p := range run.packages {
		ps := m.pkgOf(p.Package)
		ps.seen = true
		ps.index, ps.tests = p.Index, p.Tests
		ps.elapsed = max(ps.elapsed, p.ElapsedS)
		if p.Status == "?" || p.Detail == "[no tests to run]" || p.Detail == "[build failed]" {
			ps.status, ps.detail = p.Status, p.Detail
		}
	}
}

// addTest adds a shard's account of one test function.
func (m *merger) addTest(key string, t jsonTest) {
	mt := m.tests[key]
	if mt == nil {
		mt = &mergedTest{pkg: t.Package, test: t.Test, keys: map[string]bool{}}
		mt.t = jsonTest{Event: "test", Package: t.Package, Test: t.Test}
		m.tests[key] = mt
	}
	mt.shards++
	mt.t.Schedules += t.Schedules
	mt.t.Resumed += t.Resumed
	mt.t.Probes += t.Probes
	mt.t.ElapsedS = max(mt.t.ElapsedS, t.ElapsedS)
	if t.Exhausted {
		mt.exhausted++
	}
	if t.Unproved && !slices.Contains(mt.notProof, t.NotProof) {
		mt.notProof = append(mt.notProof, t.NotProof)
	}
	if t.Stopped != "" && mt.t.Stopped == "" {
		mt.t.Stopped = t.Stopped
	}
	mt.statuses = append(mt.statuses, t.Status)
	m.pkgOf(t.Package).seen = true
}

// dedupBugs returns the bugs by test function, each once: one process
// reports each bug of a test once, at the first schedule that found it;
// the shards may each have found it.
func (m *merger) dedupBugs() map[string][]jsonBug {
	bugs := m.bugs
	sort.SliceStable(bugs, func(a, b int) bool { return bugs[a].Schedule < bugs[b].Schedule })
	byTest := map[string][]jsonBug{}
	seenBug := map[string]bool{}
	for _, b := range bugs {
		k := b.Package + "\x00" + b.Test + "\x00" + b.Regression + "\x00" + bugKey(b)
		if seenBug[k] {
			continue
		}
		seenBug[k] = true
		top := b.Package + "\x00" + strings.SplitN(b.Test, "/", 2)[0]
		byTest[top] = append(byTest[top], b)
		if mt := m.tests[top]; mt != nil && b.Regression == "" {
			mt.keys[bugKey(b)] = true
		}
		m.pkgOf(b.Package).seen = true
	}
	return byTest
}

// packageOrder is the packages any shard saw, in the order one run
// reports them.
func (m *merger) packageOrder() []string {
	var names []string
	for name, p := range m.pkgs {
		if p.seen {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(a, b int) bool {
		pa, pb := m.pkgs[names[a]], m.pkgs[names[b]]
		if pa.index != pb.index {
			return pa.index < pb.index
		}
		return names[a] < names[b]
	})
	return names
}

// testOrder is the merged tests of package name, in the order one run
// reports them: by tests, the package's order; by schedules, shard 1's.
func (m *merger) testOrder(name string) []*mergedTest {
	p := m.pkgs[name]
	var ts []*mergedTest
	for _, mt := range m.tests {
		if mt.pkg == name {
			ts = append(ts, mt)
		}
	}
	pos := func(test string) int {
		for i, t := range p.tests {
			if t == test {
				return i
			}
		}
		return len(p.tests)
	}
	sort.Slice(ts, func(a, b int) bool {
		if m.first.By != "tests" {
			return m.appear[name+"\x00"+ts[a].test] < m.appear[name+"\x00"+ts[b].test]
		}
		if pa, pb := pos(ts[a].test), pos(ts[b].test); pa != pb {
			return pa < pb
		}
		return ts[a].test < ts[b].test
	})
	return ts
}

// reportPackage reports package name as one run does: its messages, the
// bugs its regression traces replayed, then each test's bugs and result,
// and its line.
func (m *merger) reportPackage(name string, byTest map[string][]jsonBug, rep *reporter) {
	p := m.pkgs[name]
	bugs0, errs0, unexplored0 := rep.bugs, rep.errors, len(rep.notExplored)
	for _, msg := range m.messages {
		if msg.Package == name {
			rep.message(msg.Event, msg.Package, msg.Test, msg.Trace, msg.Message)
		}
	}
	ts := m.testOrder(name)
	for _, mt := range ts {
		for _, b := range byTest[name+"\x00"+mt.test] {
			if b.Regression != "" {
				rep.bug(name, bugEvent(b), b.Regression)
			}
		}
	}
	for _, mt := range ts {
		for _, b := range byTest[name+"\x00"+mt.test] {
			if b.Regression == "" {
				rep.bug(name, bugEvent(b), "")
			}
		}
		rep.test(name, mt.event(m.first))
	}
	if p.status != "" {
		status := p.status
		if p.detail == "[build failed]" {
			status = "FAIL"
		}
		rep.pkgLine(status, name, p.detail)
		return
	}
	status, detail := pkgStatus(rep.bugs-bugs0, rep.errors-errs0, len(rep.notExplored)-unexplored0)
	rep.pkgResult(status, name, p.elapsed, detail)
}
