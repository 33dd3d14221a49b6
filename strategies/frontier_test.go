package strategies

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
)

func TestFrontierFIFOAcrossSpill(t *testing.T) {
	defer func(n int) { spillBytes = n }(spillBytes)
	spillBytes = 64
	var f frontier
	defer f.close()
	rng := rand.New(rand.NewSource(1))
	var want [][]delta
	for i := 0; i < 2000; i++ {
		var it []delta
		pos := 0
		for k := 0; k < 1+rng.Intn(5); k++ {
			pos += rng.Intn(300)
			it = append(it, delta{pos, 1 + rng.Intn(200)})
			pos++
		}
		want = append(want, it)
		f.push(2, it)
		if i%3 == 2 { // interleave pops with pushes
			got, ok := f.pop(2, nil)
			if !ok || !reflect.DeepEqual(got, want[0]) {
				t.Fatalf("pop %d: %v, want %v", i, got, want[0])
			}
			want = want[1:]
		}
	}
	if f.q[2].file == nil {
		t.Fatal("a queue far beyond spillBytes did not spill")
	}
	if m := len(f.q[2].mem); m > spillBytes {
		t.Fatalf("queue keeps %d bytes in memory, limit %d", m, spillBytes)
	}
	if got := f.items(2); !reflect.DeepEqual(got, want) {
		t.Fatalf("items differ from what is waiting (%d vs %d)", len(got), len(want))
	}
	for len(want) > 0 {
		got, ok := f.pop(2, nil)
		if !ok || !reflect.DeepEqual(got, want[0]) {
			t.Fatalf("drain: %v, want %v", got, want[0])
		}
		want = want[1:]
	}
	if _, ok := f.pop(2, nil); ok {
		t.Fatal("pop from an empty queue")
	}
	if f.q[2].file != nil {
		t.Fatal("drained queue keeps its file")
	}
}

func TestBoundedSpilledFrontier(t *testing.T) {
	// A search whose frontier lives on disk explores exactly what the
	// in-memory one does, and saves and resumes the same.
	defer func(n int) { spillBytes = n }(spillBytes)
	mk := func() *Bounded { return NewDB(Options{Bound: 3}) }
	spillBytes = 1 << 20
	want := exploreBound(t, reorder(4), mk(), 1000000)
	spillBytes = 8
	got := exploreBound(t, reorder(4), mk(), 1000000)
	if len(got) != len(want) {
		t.Fatalf("spilled search ran %d schedules, in memory %d", len(got), len(want))
	}
	for i := range got {
		if got[i].schedule != want[i].schedule {
			t.Fatalf("schedule %d: %s, want %s", i, got[i].schedule, want[i].schedule)
		}
	}
	first := mk()
	part := exploreBound(t, reorder(4), first, len(want)/3)
	var buf bytes.Buffer
	if err := first.Save(&buf); err != nil {
		t.Fatal(err)
	}
	second := mk()
	if err := second.Load(&buf); err != nil {
		t.Fatal(err)
	}
	rest := exploreBound(t, reorder(4), second, 1000000)
	if len(part)+len(rest) != len(want) || rest[0].schedule != want[len(part)].schedule {
		t.Fatalf("resumed spilled search: %d+%d schedules, want %d", len(part), len(rest), len(want))
	}
}

func TestBoundedMemoryIsDepth(t *testing.T) {
	// The search keeps one level per point of the current schedule beyond
	// its item, and an item has at most bound+zero-cost deltas, however
	// many schedules ran.
	s := NewDB(Options{Bound: 3})
	p := indep(4, 6)
	maxStack, maxItem, runs := 0, 0, 0
	for s.NewExecution() && runs < 20000 {
		p.run(s, 10000)
		runs++
		if len(s.stack) > maxStack {
			maxStack = len(s.stack)
		}
		if len(s.item) > maxItem {
			maxItem = len(s.item)
		}
	}
	if maxItem > 3 {
		t.Errorf("db item with %d decisions at bound 3", maxItem)
	}
	if maxStack > s.maxDepth {
		t.Errorf("stack %d deeper than the schedules (%d)", maxStack, s.maxDepth)
	}
	if runs < 1000 {
		t.Fatalf("only %d schedules", runs)
	}
}
