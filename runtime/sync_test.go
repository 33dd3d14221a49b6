package runtime

import (
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// Helpers for the tests of the sync model.

// checkWith is check with settings changed by set.
func checkWith(t *testing.T, strategy string, n int, set func(*settings), body func(*testing.T)) *explorer {
	t.Helper()
	c := &wire.Config{Mode: "explore", Strategy: strategy, Schedules: n, Seed: 1}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	set(&x.set)
	x.explore(body)
	return x
}

// outcomes explores body exhaustively and returns the sorted set of the
// strings it returned.
//
// Every program is also explored with dpor, which must reach exactly the
// outcomes dfs reaches, in no more schedules (the differential test of
// partial-order reduction).
func outcomes(t *testing.T, body func(t *testing.T) string) []string {
	t.Helper()
	seen := map[string]bool{}
	x := check(t, "dfs", 200000, func(t *testing.T) { seen[body(t)] = true })
	t.Logf("%d schedules", x.schedules)
	if !x.exhausted {
		t.Fatalf("dfs did not finish in %d schedules (bugs %d)", x.schedules, x.bugs)
	}
	reduced := map[string]bool{}
	xp := check(t, "dpor", 200000, func(t *testing.T) { reduced[body(t)] = true })
	if !xp.exhausted || strings.Join(keys(reduced), ",") != strings.Join(keys(seen), ",") || xp.schedules > x.schedules {
		t.Errorf("dpor: %d schedules (exhausted %v), outcomes %v; dfs: %d schedules, outcomes %v",
			xp.schedules, xp.exhausted, keys(reduced), x.schedules, keys(seen))
	}
	return keys(seen)
}

func wantOutcomes(t *testing.T, got []string, want string) {
	t.Helper()
	if strings.Join(got, ",") != want {
		t.Errorf("outcomes %v, want [%s]", got, want)
	}
}

// waitBlocked yields until at least n goroutines of the execution are
// blocked: a test sets up who waits on what before acting. With the random
// strategy it ends with probability 1.
func waitBlocked(n int) {
	for {
		e := active.Load()
		e.mu.Lock()
		c := 0
		for _, g := range e.gs {
			if g.state == gBlocked {
				c++
			}
		}
		e.mu.Unlock()
		if c >= n {
			return
		}
		Gosched()
	}
}

// joiner lets the test goroutine wait for the goroutines it started,
// through a channel of the model (independent of the sync hooks tested).
type joiner struct{ c chan bool }

func newJoiner() joiner { return joiner{Chan(make(chan bool))} }

func (j joiner) Go(f func()) { Go(func() { f(); Send(j.c, true) }) }

func (j joiner) Wait(n int) {
	for i := 0; i < n; i++ {
		Recv(j.c)
	}
}

// wantFatal checks that a victim's bug is Go's fatal error msg, reported as
// a panic.
func wantFatal(t *testing.T, name, msg string) {
	t.Helper()
	b := wantBug(t, victim(t, name, wire.Config{Strategy: "dfs"}), "panic")
	if !strings.HasPrefix(b.Message, "fatal error: "+msg) {
		t.Errorf("message %q, want fatal error: %s", b.Message, msg)
	}
}
