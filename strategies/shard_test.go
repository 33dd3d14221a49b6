package strategies

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// exploreOwned runs st until it is exhausted or has run limit executions of
// its own, as the runtime does for one part of a sharded search: an
// execution that the part does not own is a probe, neither counted nor
// returned.
func exploreOwned(t testing.TB, p *prog, st Strategy, limit int) (owned []outcome, probes int) {
	t.Helper()
	sh, _ := st.(Sharder)
	for len(owned) < limit && st.NewExecution() {
		o := p.run(st, 10000)
		if sh != nil && !sh.Owned() {
			probes++
			continue
		}
		owned = append(owned, o)
	}
	return owned, probes
}

// shardMakers are the systematic strategies that can be sharded: every
// registered one that implements Sharder, with a bound that prunes where
// there is one.
func shardMakers(t *testing.T) map[string]func() Strategy {
	makers := map[string]func() Strategy{}
	for _, i := range All() {
		i := i
		if _, ok := i.New(Options{}).(Sharder); !ok || !i.Systematic {
			continue
		}
		makers[i.Name] = func() Strategy { return i.New(Options{}) }
		if i.Name != "dfs" {
			makers[i.Name+" bound 1"] = func() Strategy { return i.New(Options{Bound: 1}) }
		}
	}
	for _, want := range []string{"dfs", "pb", "db"} {
		if makers[want] == nil {
			t.Fatalf("%s does not implement Sharder", want)
		}
	}
	return makers
}

func shardProgs() map[string]func() *prog {
	return map[string]func() *prog{
		"fig1": fig1, "fig2": fig2, "lock": lockProg, "reorder4": func() *prog { return reorder(4) },
		"indep3x2": func() *prog { return indep(3, 2) },
		"select": func() *prog {
			return &prog{threads: [][]op{{create("go", 1), {name: "select", cases: 3}}, {nop("a"), nop("b")}}}
		},
	}
}

// TestShardsRunTheWholeSearchOnce: the parts of a sharded search, each run
// to its end by itself, together run every schedule of the whole search
// exactly once, and each part is exhausted.
func TestShardsRunTheWholeSearchOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every shard of several searches to their end (the whole suite runs it)")
	}
	for name, mk := range shardMakers(t) {
		for pname, p := range shardProgs() {
			full := explore(t, p(), mk(), 1000000)
			want := schedules(full)
			for _, n := range []int{1, 2, 3, 8, 17} {
				var got []string
				probes := 0
				for i := 0; i < n; i++ {
					s := mk()
					if err := s.(Sharder).Shard(i, n); err != nil {
						t.Fatal(err)
					}
					owned, pr := exploreOwned(t, p(), s, 1000000)
					probes += pr
					got = append(got, schedules(owned)...)
					if !s.(Status).Exhausted() {
						t.Fatalf("%s %s part %d/%d: not exhausted", name, pname, i+1, n)
					}
					if st := s.(Status).Status(); !strings.Contains(st, fmt.Sprintf(" %d schedules", len(owned))) {
						t.Errorf("%s %s part %d/%d: status %q does not count its %d schedules", name, pname, i+1, n, st, len(owned))
					}
				}
				sort.Strings(got)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%s %s into %d: %d schedules, want the %d of one search, each once", name, pname, n, len(got), len(want))
				}
				if n == 1 && probes > 0 {
					t.Fatalf("%s %s: %d probes in a search of one part", name, pname, probes)
				}
			}
		}
	}
}

// TestShardsBalance: on trees far bigger than the division, the parts are
// of about the same size, and the probes few.
func TestShardsBalance(t *testing.T) {
	cases := []struct {
		strategy string
		p        func() *prog
		probes   float64 // most probes, per schedule of the tree
	}{
		{"dfs", func() *prog { return indep(3, 3) }, 0.01},
		{"pb", func() *prog { return indep(4, 3) }, 0.03},
		// A tree of a few hundred schedules is small for 8 parts.
		{"db", func() *prog { return indep(2, 8) }, 0.4},
	}
	for _, c := range cases {
		mk := func() Strategy { s, _ := New(c.strategy, Options{Bound: 3}); return s }
		total := len(explore(t, c.p(), mk(), 1000000))
		for _, n := range []int{2, 3, 8} {
			var sizes []int
			probes := 0
			for i := 0; i < n; i++ {
				s := mk()
				s.(Sharder).Shard(i, n)
				owned, pr := exploreOwned(t, c.p(), s, 1000000)
				sizes = append(sizes, len(owned))
				probes += pr
			}
			mean := float64(total) / float64(n)
			for i, k := range sizes {
				if float64(k) > 1.5*mean {
					t.Errorf("%s into %d: part %d has %d of %d schedules (parts %v)", c.strategy, n, i+1, k, total, sizes)
				}
			}
			if float64(probes) > c.probes*float64(total) {
				t.Errorf("%s into %d: %d probes for %d schedules", c.strategy, n, probes, total)
			}
			t.Logf("%s, %d schedules into %d: %v, %d probes", c.strategy, total, n, sizes, probes)
		}
	}
}

// TestShardSaveResume: a part saved and resumed (as the same part) runs
// the schedules it had left, and refuses to resume as another part.
func TestShardSaveResume(t *testing.T) {
	for _, name := range []string{"dfs", "pb", "db"} {
		mk := func() Strategy { s, _ := New(name, Options{Bound: 2}); return s }
		const n = 3
		for i := 0; i < n; i++ {
			whole := mk()
			whole.(Sharder).Shard(i, n)
			full, _ := exploreOwned(t, reorder(4), whole, 1000000)
			for _, cut := range []int{0, 1, len(full) / 2} {
				first := mk()
				first.(Sharder).Shard(i, n)
				part, _ := exploreOwned(t, reorder(4), first, cut)
				var buf bytes.Buffer
				if err := first.(Saver).Save(&buf); err != nil {
					t.Fatal(err)
				}
				if cut > 0 {
					other := mk()
					other.(Sharder).Shard((i+1)%n, n)
					if err := other.(Saver).Load(bytes.NewReader(buf.Bytes())); err == nil {
						t.Fatalf("%s: part %d resumed the search of part %d", name, (i+1)%n+1, i+1)
					}
					if err := mk().(Saver).Load(bytes.NewReader(buf.Bytes())); err != nil {
						t.Fatalf("%s: a search given no part could not load a part: %v", name, err)
					}
				}
				second := mk()
				second.(Sharder).Shard(i, n)
				if err := second.(Saver).Load(bytes.NewReader(buf.Bytes())); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				rest, _ := exploreOwned(t, reorder(4), second, 1000000)
				got := schedules(append(part, rest...))
				if strings.Join(got, "\n") != strings.Join(schedules(full), "\n") {
					t.Fatalf("%s part %d cut at %d: %d schedules, want %d", name, i+1, cut, len(got), len(full))
				}
			}
		}
	}
	d := NewDFS(Options{})
	explore(t, fig1(), d, 2)
	var buf bytes.Buffer
	d.Save(&buf)
	p := NewDFS(Options{})
	p.Shard(0, 2)
	if err := p.Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Fatal("part 1 of 2 resumed a whole search")
	}
	if err := d.Shard(0, 2); err == nil {
		t.Fatal("sharded a search that had started")
	}
}

// TestShardSplit: gosct split divides a part into parts of that part.
func TestShardSplit(t *testing.T) {
	const n = 2
	for i := 0; i < n; i++ {
		whole := NewDB(Options{Bound: 3})
		whole.Shard(i, n)
		full, _ := exploreOwned(t, reorder(4), whole, 1000000)
		first := NewDB(Options{Bound: 3})
		first.Shard(i, n)
		got, _ := exploreOwned(t, reorder(4), first, len(full)/3)
		parts, err := first.Split(3)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range parts {
			s := NewDB(Options{Bound: 3})
			if err := s.Load(bytes.NewReader(b)); err != nil {
				t.Fatal(err)
			}
			rest, _ := exploreOwned(t, reorder(4), s, 1000000)
			got = append(got, rest...)
		}
		if a, b := strings.Join(schedules(got), "\n"), strings.Join(schedules(full), "\n"); a != b {
			t.Fatalf("part %d split in 3: %d schedules, want %d", i+1, len(got), len(full))
		}
	}
}

// TestSeekRunsTheRange: random, and PCT whose estimates do not move, run
// exactly the schedules of the whole search when the numbers 1..N are
// divided into ranges, each run by a strategy moved to its start.
func TestSeekRunsTheRange(t *testing.T) {
	makers := map[string]func() Strategy{
		"random": func() Strategy { return NewRandom(Options{Seed: 11}) },
		// Estimates at least the program's: PCT learns nothing new.
		"pct": func() Strategy { return NewPCT(Options{Seed: 11, Depth: 3, Threads: 8, Steps: 40}) },
	}
	const total = 200
	for name, mk := range makers {
		full := explore(t, reorder(4), mk(), total)
		for _, n := range []int{1, 3, 8} {
			var got []outcome
			for i := 0; i < n; i++ {
				a, b := total*i/n, total*(i+1)/n
				s := mk()
				s.(Seeker).Seek(a)
				got = append(got, explore(t, reorder(4), s, b-a)...)
			}
			for k := range full {
				if got[k].schedule != full[k].schedule {
					t.Fatalf("%s in %d ranges: schedule %d is %s, want %s", name, n, k+1, got[k].schedule, full[k].schedule)
				}
			}
		}
	}
}

// TestPortfolioShards: a sharded portfolio's random members draw the
// schedules of the whole run at the same numbers, and its db member's
// parts do not overlap.
func TestPortfolioShards(t *testing.T) {
	const total = 240
	type exec struct{ member, schedule string }
	run := func(s *Portfolio, limit int) []exec {
		var out []exec
		for len(out) < limit && s.NewExecution() {
			o := reorder(5).run(s, 10000)
			if !s.Owned() {
				continue
			}
			out = append(out, exec{s.Member(), o.schedule})
		}
		return out
	}
	full := run(NewPortfolio(Options{Seed: 4}), total)
	for _, n := range []int{3, 8} {
		var got []exec
		for i := 0; i < n; i++ {
			a, b := total*i/n, total*(i+1)/n
			s := NewPortfolio(Options{Seed: 4})
			if err := s.Shard(i, n); err != nil {
				t.Fatal(err)
			}
			s.Seek(a)
			got = append(got, run(s, b-a)...)
		}
		if len(got) != len(full) {
			t.Fatalf("into %d: %d executions, want %d", n, len(got), len(full))
		}
		dbSeen := map[string]bool{}
		for k := range full {
			if got[k].member != full[k].member {
				t.Fatalf("into %d: execution %d by %s, want %s", n, k+1, got[k].member, full[k].member)
			}
			switch got[k].member {
			case "random":
				if got[k].schedule != full[k].schedule {
					t.Fatalf("into %d: random execution %d is %s, want %s", n, k+1, got[k].schedule, full[k].schedule)
				}
			case "db":
				if dbSeen[got[k].schedule] {
					t.Fatalf("into %d: two parts ran the db schedule %s", n, got[k].schedule)
				}
				dbSeen[got[k].schedule] = true
			}
		}
	}
}
