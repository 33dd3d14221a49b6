package runtime

import (
	"os"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// small is a program with a few dozen schedules: two goroutines and a
// hand-off each.
func small(t *testing.T) {
	done := Chan(make(chan bool))
	for i := 0; i < 2; i++ {
		Go(func() { Send(done, true) })
	}
	Recv(done)
	Recv(done)
}

// explorer of body under c, run to its end.
func runExplorer(t *testing.T, c *wire.Config, body func(*testing.T)) *explorer {
	t.Helper()
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.explore(body)
	return x
}

func TestStateResumesDFS(t *testing.T) {
	for _, strategy := range []string{"dfs", "random", "portfolio"} {
		t.Run(strategy, func(t *testing.T) {
			base := wire.Config{Mode: "explore", Strategy: strategy, Seed: 1, Schedules: 100000, TraceDir: t.TempDir()}
			if strategy != "dfs" {
				base.Schedules = 60
			}
			full := runExplorer(t, &base, small)
			if strategy == "dfs" && (!full.exhausted || full.schedules < 10) {
				t.Fatalf("uninterrupted dfs: %d schedules, exhausted %v", full.schedules, full.exhausted)
			}

			c := base
			c.State = t.TempDir()
			total, runs := 0, 0
			for runs = 1; runs < 100; runs++ {
				c.Schedules = 50 // each run stops on its schedule budget
				if strategy != "dfs" {
					c.Schedules = 7
				}
				if strategy != "dfs" && base.Schedules-total < 7 {
					c.Schedules = base.Schedules - total
				}
				c.Results = ""
				x := runExplorer(t, &c, small)
				if x.resumed != total {
					t.Fatalf("run %d resumed after %d schedules, want %d", runs, x.resumed, total)
				}
				total = x.schedules
				st, err := wire.ReadState(wire.StatePath(c.State, c.Package, t.Name()))
				if err != nil || st == nil || st.Schedules != total {
					t.Fatalf("saved state %+v, %v; want %d schedules", st, err, total)
				}
				if x.exhausted || total == base.Schedules {
					break
				}
			}
			t.Logf("%s: %d schedules in %d runs", strategy, total, runs)
			if total != full.schedules {
				t.Fatalf("%d runs explored %d schedules in all; uninterrupted %d", runs, total, full.schedules)
			}
			if strategy == "dfs" && runs < 3 {
				t.Fatalf("only %d runs: the test does not interrupt the search", runs)
			}
		})
	}
}

func TestStateSavedOnInterrupt(t *testing.T) {
	defer interrupted.Store(false)
	c := wire.Config{Mode: "explore", Strategy: "dfs", Seed: 1, Schedules: 100000, TraceDir: t.TempDir(), State: t.TempDir()}
	n := 0
	x := runExplorer(t, &c, func(t *testing.T) {
		if n++; n == 5 {
			interrupted.Store(true) // as the signal handler does
		}
		small(t)
	})
	if x.schedules != 5 || x.exhausted || x.stopped != "interrupted" {
		t.Fatalf("interrupted after %d schedules (exhausted %v, stopped %q), want 5", x.schedules, x.exhausted, x.stopped)
	}
	st, err := wire.ReadState(wire.StatePath(c.State, "", t.Name()))
	if err != nil || st == nil || st.Schedules != 5 {
		t.Fatalf("state after the interrupt: %+v, %v", st, err)
	}
}

func TestStateRejectsOtherOptions(t *testing.T) {
	c := wire.Config{Mode: "explore", Strategy: "dfs", Seed: 1, Schedules: 3, TraceDir: t.TempDir(), State: t.TempDir()}
	runExplorer(t, &c, small)
	for _, mod := range []func(*wire.Config){
		func(c *wire.Config) { c.Strategy = "pb" },
		func(c *wire.Config) { c.Seed = 2 },
		func(c *wire.Config) { c.Bound = 2 },
		func(c *wire.Config) { c.Races = "report" },
	} {
		c2 := c
		mod(&c2)
		if _, err := newExplorer(t, &c2); err == nil {
			t.Errorf("resumed a dfs search of seed 1 with %+v", c2)
		}
	}
	bad := wire.StatePath(c.State, "", t.Name())
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := newExplorer(t, &c); err == nil {
		t.Error("resumed from a corrupt state file")
	}
}
