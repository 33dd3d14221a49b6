package runtime

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

// A small-range draw is a decision: dfs tries every value of two coins,
// and says so.
func TestValueDecisionsEnumerated(t *testing.T) {
	seen := map[[2]int]bool{}
	x := check(t, "dfs", 100, func(t *testing.T) {
		a := RandIntn(2)
		b := Rand2IntN(2)
		seen[[2]int{a, b}] = true
	})
	if len(seen) != 4 || x.schedules != 4 || !x.exhausted {
		t.Errorf("dfs saw %v in %d schedules (exhausted %v), want the 4 pairs in 4", seen, x.schedules, x.exhausted)
	}
}

// A small Perm is a sequence of decisions: dfs tries all 6 orders of 3.
func TestSmallPermEnumerated(t *testing.T) {
	seen := map[[3]int]bool{}
	check(t, "dfs", 100, func(t *testing.T) {
		p := RandPerm(3)
		seen[[3]int(p)] = true
	})
	if len(seen) != 6 {
		t.Errorf("dfs saw %d orders of 3, want 6: %v", len(seen), seen)
	}
}

// runInputs runs body once in an execution with the given inputs and
// settings.
func runInputs(t *testing.T, in inputs, detailed bool, body func(*testing.T)) *execution {
	t.Helper()
	x, err := newExplorer(t, &wire.Config{Mode: "explore", Strategy: "random", Seed: 1, TraceDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	set := x.set
	set.detailed = detailed
	s, _ := strategies.New("random", strategies.Options{Seed: 1})
	s.NewExecution()
	e, _ := x.runOnce("run", s, set, in, body)
	if e.bug != nil {
		t.Fatalf("unexpected bug: %s", e.bug.report())
	}
	return e
}

// Large draws come from the execution's source: the same inputs draw the
// same values, other inputs others.
func TestLargeDrawsFollowInputs(t *testing.T) {
	draw := func(seed uint64) []float64 {
		var got []float64
		runInputs(t, inputs{seed: seed, epoch: 1}, false, func(t *testing.T) {
			got = append(got, RandFloat64(), float64(RandIntn(1000)), Rand2Float64(), float64(Rand2N(time.Hour)))
			b := make([]byte, 4)
			CryptoRead(b)
			got = append(got, float64(b[0]))
		})
		return got
	}
	a, b, c := draw(7), draw(7), draw(8)
	if !slices.Equal(a, b) {
		t.Errorf("same inputs, other draws: %v, %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("other inputs, same draws: %v", a)
	}
}

// The clock starts at the inputs' epoch, and NumGoroutine counts from the
// inputs' count.
func TestClockAndGoroutineCountFollowInputs(t *testing.T) {
	epoch := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC).UnixNano()
	var now time.Time
	var n0, n2 int
	runInputs(t, inputs{seed: 1, epoch: epoch, goroutines: 40}, false, func(t *testing.T) {
		now = Now()
		n0 = NumGoroutine()
		c := Chan(make(chan int))
		Go(func() { Recv(c) })
		Go(func() { Recv(c) })
		n2 = NumGoroutine()
		Send(c, 1)
		Send(c, 2)
	})
	if now.UnixNano() != epoch {
		t.Errorf("Now = %v, want the epoch %v", now, time.Unix(0, epoch))
	}
	if n0 != 40 || n2 != 42 {
		t.Errorf("NumGoroutine = %d then %d, want 40 then 42", n0, n2)
	}
}

// rangeOrder is the order in which a rewritten range visits m's keys.
func rangeOrder[K comparable, V any](m map[K]V) []K {
	var ks []K
	it := MapRange(m)
	for k, _, ok := it.Next(); ok; k, _, ok = it.Next() {
		ks = append(ks, k)
	}
	return ks
}

// Map ranges follow the inputs: the same seed gives the same orders, and
// seeds differ in the orders they give.
func TestMapOrderFollowsInputs(t *testing.T) {
	m := map[string]int{}
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		m[k] = len(k)
	}
	orders := func(seed uint64) [][]string {
		var out [][]string
		runInputs(t, inputs{seed: seed, epoch: 1}, false, func(t *testing.T) {
			out = append(out, rangeOrder(m), rangeOrder(m))
		})
		return out
	}
	a := orders(3)
	for i := 0; i < 5; i++ {
		if b := orders(3); !reflect.DeepEqual(a, b) {
			t.Fatalf("same inputs, other orders: %v, %v", a, b)
		}
	}
	if reflect.DeepEqual(a[0], a[1]) {
		t.Errorf("two ranges of one execution took the same order %v: each should have its own", a[0])
	}
	distinct := map[string]bool{}
	for s := uint64(0); s < 20; s++ {
		distinct[fmtKeys(orders(s)[0])] = true
	}
	if len(distinct) < 5 {
		t.Errorf("20 seeds gave only %d orders", len(distinct))
	}
}

func fmtKeys(ks []string) string {
	b, _ := json.Marshal(ks)
	return string(b)
}

// A rewritten range keeps Go's semantics: an entry deleted before it is
// reached is not produced, a value is read when its entry is reached, a
// NaN key is produced, and the keys of every kind are ordered.
func TestMapRangeSemantics(t *testing.T) {
	runInputs(t, inputs{seed: 9, epoch: 1}, false, func(t *testing.T) {
		m := map[int]int{1: 1, 2: 2, 3: 3, 4: 4}
		it := MapRange(m)
		k, _, _ := it.Next()
		var others []int
		for o := range m {
			if o != k {
				others = append(others, o)
			}
		}
		slices.Sort(others)
		delete(m, others[0]) // not reached yet: not produced
		m[others[1]] = 100   // reached later: the new value
		m[5] = 5             // added: Go may skip it, the runtime does
		got := map[int]int{}
		for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
			got[k] = v
		}
		want := map[int]int{others[1]: 100, others[2]: others[2]}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("after %d: got %v, want %v", k, got, want)
		}

		f := map[float64]bool{math.NaN(): true, 1: true, 2: false}
		if n := len(rangeOrder(f)); n != 3 {
			t.Errorf("%d entries of a map with a NaN key, want 3", n)
		}
		type key struct {
			A string
			B [2]int
			C any
		}
		s := map[key]int{{"x", [2]int{1, 2}, 3}: 1, {"x", [2]int{1, 2}, "y"}: 2, {"a", [2]int{}, nil}: 3}
		if n := len(rangeOrder(s)); n != 3 {
			t.Errorf("%d entries of a map with struct keys, want 3", n)
		}
	})
	// Outside an execution: every entry, in Go's order.
	if n := len(rangeOrder(map[int]bool{1: true, 2: true, 3: true})); n != 3 {
		t.Errorf("pass-through: %d entries, want 3", n)
	}
}

// Keys without a reproducible order (pointers) keep Go's order; the
// execution says so.
func TestMapRangeUnorderedKeysNoted(t *testing.T) {
	a, b := new(int), new(int)
	e := runInputs(t, inputs{seed: 1, epoch: 1}, true, func(t *testing.T) {
		rangeOrder(map[*int]bool{a: true, b: true})
	})
	if !e.uncontrolled || len(e.in.sources) == 0 || e.in.sources[0].Kind != "unordered map" {
		t.Errorf("uncontrolled %v, sources %+v: want an unordered map noted", e.uncontrolled, e.in.sources)
	}
}

// sortKeys orders by value, and refuses what holds a pointer.
func TestSortKeys(t *testing.T) {
	type named string
	ns := []named{"b", "c", "a"}
	if !sortKeys(ns) || !slices.Equal(ns, []named{"a", "b", "c"}) {
		t.Errorf("named strings: %v", ns)
	}
	is := []int8{3, -1, 2}
	if !sortKeys(is) || !slices.Equal(is, []int8{-1, 2, 3}) {
		t.Errorf("int8: %v", is)
	}
	type withPtr struct{ p *int }
	if sortKeys([]withPtr{{new(int)}, {new(int)}}) {
		t.Errorf("keys holding pointers were ordered")
	}
	if sortKeys([]any{1, new(int)}) {
		t.Errorf("interface keys holding a pointer were ordered")
	}
}

// A bug's trace records the inputs, the source log, where the package is
// (directory, module) and the file hashes the command gave; a replay
// draws the same values and reproduces it.
func TestTraceRecordsInputs(t *testing.T) {
	dir := t.TempDir()
	files := filepath.Join(dir, "files.json")
	os.WriteFile(files, []byte(`{"pkg/a.go":"sha256:00"}`), 0o644)
	c := wire.Config{Strategy: "random", Seed: 4, Module: "example.com/m", Files: files}
	b := wantBug(t, victim(t, "TestVictimRandomFailure", c), kindFailure)
	if !b.Replayed {
		t.Fatal("the detailed re-run did not reproduce the failure")
	}
	tr, err := replay.Read(b.Trace)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if tr.Inputs == nil || tr.Inputs.Epoch == 0 || tr.Dir != wd || tr.Module != "example.com/m" || tr.Files["pkg/a.go"] != "sha256:00" {
		t.Errorf("trace: inputs %+v, dir %q, module %q, files %v", tr.Inputs, tr.Dir, tr.Module, tr.Files)
	}
	kinds := map[string]bool{}
	for _, s := range tr.Sources {
		kinds[s.Kind] = true
	}
	if !kinds["rand"] || !kinds["map order"] {
		t.Errorf("sources %+v: want rand draws and map orders", tr.Sources)
	}
	for i := 0; i < 3; i++ {
		evs := victim(t, "TestVictimRandomFailure", wire.Config{Mode: "replay", Trace: b.Trace, Schedules: 1})
		for _, e := range evs {
			if e.Event == "diverged" {
				t.Fatalf("replay %d diverged: %s", i, e.Message)
			}
		}
		if r := wantBug(t, evs, kindFailure); !r.Replayed {
			t.Fatalf("replay %d did not reproduce the failure", i)
		}
	}
}

// TestVictimRandomFailure fails on some draws and some map orders.
func TestVictimRandomFailure(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		// More keys than permLimit: the order is drawn from the
		// inputs' source (a smaller map's is a decision).
		m := map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true}
		first := rangeOrder(m)[0]
		if RandFloat64() < 0.5 && first == 2 && RandIntn(20) > 10 {
			T(t).Errorf("unlucky")
		}
	})
}

// The determinism check finds nothing when the sources are controlled,
// and names the source when its control is off.
func TestCheckDeterminism(t *testing.T) {
	for _, free := range []string{"", "rand", "maps", "time"} {
		c := wire.Config{Strategy: "random", Seed: 1, Schedules: 20, CheckDeterminism: true}
		if free != "" {
			c.Free = []string{free}
		}
		evs := victim(t, "TestVictimReadsSources", c)
		var nd []wire.Event
		for _, e := range evs {
			if e.Event == "nondeterministic" {
				nd = append(nd, e)
			}
		}
		want := map[string]string{"": "", "rand": "rand", "maps": "map order", "time": "time"}[free]
		switch {
		case want == "" && len(nd) > 0:
			t.Errorf("all controls on: %s", nd[0].Message)
		case want != "" && (len(nd) == 0 || nd[0].Source != want):
			t.Errorf("control %s off: events %+v, want one naming %q", free, nd, want)
		}
	}
}

// TestVictimReadsSources reads a draw, a map order and the clock; the
// outcome does not depend on them.
func TestVictimReadsSources(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		_ = rangeOrder(map[string]int{"a": 1, "b": 2, "c": 3})
		_ = RandFloat64()
		_ = Now()
	})
}

// Goroutines of an execution draw from its source, unordered by any
// synchronization of theirs: under go test -race the runtime's generators
// must not be reported racing.
func TestDrawsFromGoroutines(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		done := Chan(make(chan bool))
		for i := 0; i < 2; i++ {
			Go(func() {
				b := make([]byte, 3)
				RandRead(b)
				_ = RandFloat64() + Rand2Float64() + float64(RandIntn(100)+Rand2IntN(2))
				Send(done, true)
			})
		}
		Recv(done)
		Recv(done)
	})
}

// A small map's order is a decision: dfs tries every order of a range
// over three keys, and no other.
func TestSmallMapOrderIsDecision(t *testing.T) {
	m := map[string]bool{"a": true, "b": true, "c": true}
	seen := map[string]bool{}
	x := check(t, "dfs", 100, func(t *testing.T) {
		seen[strings.Join(rangeOrder(m), "")] = true
	})
	if !x.exhausted || x.schedules != 6 || len(seen) != 6 {
		t.Errorf("dfs over a range of 3 keys: %d schedules (exhausted %v), orders %v; want the 6 orders", x.schedules, x.exhausted, seen)
	}
}

// The clock's origin is an input like the random seed: within a second
// after now, at a fraction of a second drawn from the seed. A
// re-executing strategy's executions (and two such strategies with one
// seed) read the same fraction, so a program that branches on the
// millisecond takes the same branch under the same decisions; a random
// strategy's schedules each draw another fraction.
func TestEpochFollowsSeed(t *testing.T) {
	now := time.Date(2026, 11, 27, 5, 0, 7, 123456789, time.UTC)
	frac := func(e int64) int64 { return e % int64(time.Second) }
	a := freshInputs(1, 1, true, now)
	for _, later := range []time.Duration{0, 300 * time.Millisecond, 42 * time.Second} {
		b := freshInputs(1, 9, true, now.Add(later))
		if frac(b.epoch) != frac(a.epoch) {
			t.Errorf("re-executing strategy, %v later: fraction %d, want %d", later, frac(b.epoch), frac(a.epoch))
		}
	}
	fractions := map[int64]bool{}
	for n := 1; n <= 20; n++ {
		at := now.Add(time.Duration(n) * 37 * time.Millisecond)
		e := freshInputs(1, n, false, at).epoch
		if e < at.UnixNano() || e >= at.Add(time.Second).UnixNano() {
			t.Fatalf("schedule %d starts at %v, not within the second after %v", n, time.Unix(0, e).UTC(), at)
		}
		fractions[frac(e)] = true
	}
	if len(fractions) < 15 {
		t.Errorf("20 random schedules drew %d distinct fractions", len(fractions))
	}
}
