package runtime

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

// covRun drives a coverage record by hand: goroutines reach points and
// access objects, as the hooks and the race detector's events do.
type covRun struct {
	c  *coverage
	e  *execution
	gs map[int]*goroutine
}

func newCovRun() *covRun {
	c := &coverage{}
	c.begin()
	return &covRun{c: c, e: &execution{race: detector{cov: c}}, gs: map[int]*goroutine{}}
}

func (r *covRun) g(id int) *goroutine {
	if r.gs[id] == nil {
		r.gs[id] = &goroutine{id: id}
	}
	return r.gs[id]
}

// at makes goroutine id reach the point of op at pos.
func (r *covRun) at(id int, pos string, op opKind) *goroutine {
	g := r.g(id)
	g.op = op
	r.c.reachAt(g, op, r.c.intern(pos)-1)
	return g
}

// pairs renders the ordered pairs with their schedules.
func (r *covRun) pairs() string {
	r.c.commit()
	rep := r.c.report()
	var out []string
	for _, p := range rep.Pairs {
		out = append(out, fmt.Sprintf("%s>%s:%d", rep.Points[p.A].Pos, rep.Points[p.B].Pos, p.Schedules))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

var covObj1, covObj2 byte

func TestCoverageMemoryPairs(t *testing.T) {
	r := newCovRun()
	x := uintptr(unsafe.Pointer(&covObj1))
	r.c.touch(r.at(1, "a.go:1", opWrite), x, true)
	r.c.touch(r.at(2, "a.go:2", opRead), x, false)
	r.c.touch(r.at(3, "a.go:3", opRead), x, false)
	r.c.touch(r.at(3, "a.go:3", opRead), x, false) // the same read again: one access
	r.c.touch(r.at(2, "a.go:4", opWrite), x, true)
	r.c.touch(r.at(2, "a.go:5", opWrite), x, true) // same goroutine: no pair
	// Two reads do not conflict; a write conflicts with the last write
	// and with every read since, of other goroutines.
	if got, want := r.pairs(), "a.go:1>a.go:2:1 a.go:1>a.go:3:1 a.go:3>a.go:4:1"; got != want {
		t.Errorf("pairs %s, want %s", got, want)
	}
	// A second execution counts each pair it sees once more.
	r.c.begin()
	for i := 0; i < 3; i++ {
		r.c.touch(r.at(1, "a.go:1", opWrite), x, true)
		r.c.touch(r.at(2, "a.go:2", opRead), x, false)
	}
	if got, want := r.pairs(), "a.go:1>a.go:2:2 a.go:1>a.go:3:1 a.go:2>a.go:1:1 a.go:3>a.go:4:1"; got != want {
		t.Errorf("after a second execution: pairs %s, want %s", got, want)
	}
	r.c.commit()
	for _, p := range r.c.report().Points {
		if p.Pos == "a.go:1" && p.Schedules != 2 {
			t.Errorf("a.go:1 reached in %d schedules, want 2", p.Schedules)
		}
	}
}

// TestCoverageSyncPairs: a mutex's locks conflict, its unlocks are not
// accesses; a WaitGroup's Done is one access even when its goroutine
// releases another object before its next operation (a Once after f);
// a channel's sends and receives are two sides.
func TestCoverageSyncPairs(t *testing.T) {
	r := newCovRun()
	m := unsafe.Pointer(&covObj1)
	r.e.race.cov.sync(r.at(1, "m.go:1", opLock), m, true)
	r.e.race.cov.sync(r.at(1, "m.go:2", opUnlock), m, false)
	r.e.race.cov.sync(r.at(2, "m.go:1", opLock), m, true)
	r.e.race.cov.sync(r.at(2, "m.go:2", opUnlock), m, false)
	if got, want := r.pairs(), "m.go:1>m.go:1:1"; got != want {
		t.Errorf("mutex: pairs %s, want %s", got, want)
	}

	r = newCovRun()
	wg, once := unsafe.Pointer(&covObj1), unsafe.Pointer(&covObj2)
	g := r.at(1, "w.go:1", opWaitGroup)
	r.e.race.cov.sync(g, wg, false)
	r.e.race.cov.sync(g, once, false) // not this operation's
	r.e.race.cov.sync(r.at(2, "w.go:2", opOnce), once, true)
	r.e.race.cov.sync(r.at(0, "w.go:3", opWait), wg, true)
	if got, want := r.pairs(), "w.go:1>w.go:3:1"; got != want {
		t.Errorf("waitgroup and once: pairs %s, want %s", got, want)
	}

	r = newCovRun()
	ch := unsafe.Pointer(&covObj1)
	r.e.race.cov.channel(r.at(1, "c.go:1", opSend), ch, true, false)
	r.e.race.cov.channel(r.at(2, "c.go:2", opRecv), ch, false, true)
	r.e.race.cov.channel(r.at(3, "c.go:3", opSend), ch, true, false)
	r.e.race.cov.channel(r.at(4, "c.go:4", opClose), ch, true, true)
	r.e.race.cov.channel(r.at(2, "c.go:5", opRecv), ch, false, true)
	// Not send>receive (a value's send always comes first).
	if got, want := r.pairs(), "c.go:1>c.go:3:1 c.go:2>c.go:4:1 c.go:3>c.go:4:1 c.go:4>c.go:5:1"; got != want {
		t.Errorf("channel: pairs %s, want %s", got, want)
	}
}
