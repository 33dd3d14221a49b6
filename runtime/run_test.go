package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

func TestRunSubtestsJoinExecution(t *testing.T) {
	check(t, "random", 3, func(t *testing.T) {
		Parallel(t)
		for _, n := range []string{"a", "b"} {
			Run(t, n, func(t *testing.T) {
				Parallel(t)
				c := Chan(make(chan int, 1))
				Send(c, 1)
				Recv(c)
			})
		}
	})
}

// Parallel subtests run as under go test: after their parent's function
// has returned (its code after the t.Run calls comes first), beside each
// other in every order, and before the parent's end.
func TestParallelSubtestsInterleave(t *testing.T) {
	orders := map[string]bool{}
	x := check(t, "dfs", 2000, func(t *testing.T) {
		var log noteLog
		note := log.note
		for _, n := range []string{"a", "b"} {
			if !Run(t, n, func(t *testing.T) {
				Parallel(t)
				note(n + "1")
				note(n + "2")
			}) {
				t.Errorf("t.Run of a parallel subtest returned false")
			}
		}
		note("parent")
		Cleanup(t, func() {
			if len(log.lines) != 5 || log.lines[0] != "parent" {
				t.Errorf("log %v: want the parent's note first, then both subtests'", log.lines)
			}
			orders[strings.Join(log.lines[1:], " ")] = true
		})
	})
	if x.bugs != 0 {
		t.Fatalf("%d bugs in %d schedules", x.bugs, x.schedules)
	}
	// a1 a2 b1 b2 in every interleaving that keeps each subtest's order: 6.
	if len(orders) != 6 {
		t.Errorf("%d orders of the subtests' notes, want 6: %v", len(orders), orders)
	}
}

// Parallel subtests that share a variable race, as go test -race says.
func TestVictimParallelSubtestsRace(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var n int
		for _, name := range []string{"a", "b"} {
			Run(t, name, func(t *testing.T) {
				Parallel(t)
				StoreAt(&n, LoadAt(&n, &parSite)+1, &parSite)
			})
		}
	})
}

var parSite = Site{Expr: "n", Pos: "run_test.go:1"}

func TestParallelSubtestsRace(t *testing.T) {
	if raceEnabled {
		// Go's own detector sees this race too, and testing's check of
		// it fails the victim's parent subtest, or panics when that has
		// already ended, before gosct reports: which one depends on Go's
		// scheduling. TestGoRaceSeesRacyPrograms covers Go's detector.
		t.Skip("the victim races under Go's detector as well")
	}
	wantBug(t, victim(t, "TestVictimParallelSubtestsRace", wire.Config{Strategy: "random", Schedules: 50, Races: "report"}), "race")
}

// A parallel subtest waiting for its parent is dumped as Go dumps it: in
// testing's t.Parallel, on a channel receive (goleak ignores goroutines by
// that frame: a serial subtest's goleak.VerifyNone must not see a leak).
func TestParallelSubtestPausedInDump(t *testing.T) {
	check(t, "random", 3, func(t *testing.T) {
		Run(t, "parallel", func(t *testing.T) { Parallel(t) })
		Run(t, "serial", func(t *testing.T) {
			buf := make([]byte, 1<<20)
			dump := string(buf[:Stack(buf, true)])
			found := false
			for _, g := range strings.Split(dump, "\n\n") {
				lines := strings.Split(g, "\n")
				if len(lines) > 1 && strings.HasPrefix(lines[1], "testing.(*T).Parallel(") {
					found = strings.Contains(lines[0], "[chan receive")
				}
			}
			if !found {
				t.Errorf("no goroutine in testing.(*T).Parallel, waiting on a channel receive:\n%s", dump)
			}
		})
	})
}

// A subtest's cleanups run inside the execution, after its parallel
// subtests and before its parent's t.Run returns, as under go test: one
// that releases a goroutine of the subtest is no deadlock.
func TestSubtestCleanupsRunControlled(t *testing.T) {
	x := check(t, "dpor", 2000, func(t *testing.T) {
		stopped := Chan(make(chan struct{}))
		var log noteLog
		note := log.note
		Run(t, "a", func(t *testing.T) {
			stop := Chan(make(chan struct{}))
			Go(func() {
				Recv(stop)
				Close(stopped)
			})
			Cleanup(t, func() {
				note("cleanup")
				Close(stop)
			})
			Run(t, "p", func(t *testing.T) {
				Parallel(t)
				note("parallel")
			})
		})
		note("parent")
		Recv(stopped)
		if got := log.String(); got != "parallel cleanup parent" {
			t.Errorf("order %q, want the parallel subtest, the cleanup, then the parent", got)
		}
	})
	wantProof(t, x)
}

// A goroutine a subtest leaves running races with its parent's code after
// t.Run, as go test -race says, even when it ran first: t.Run orders the
// parent after the subtest, not after everything that ran meanwhile.
func TestVictimSubtestLeftoverRace(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var n int
		done := Chan(make(chan struct{}))
		Run(t, "a", func(t *testing.T) {
			Go(func() {
				StoreAt(&n, 1, &parSite)
				Close(done)
			})
			Gosched() // the write, then the subtest's end: still no order
		})
		LoadAt(&n, &parSite)
		Recv(done)
	})
}

func TestSubtestLeftoverRace(t *testing.T) {
	wantBug(t, victim(t, "TestVictimSubtestLeftoverRace", wire.Config{Strategy: "dfs", Schedules: 1, Races: "report"}), "race")
}

// A deadlock inside a subtest is reported, its parent shown waiting in
// t.Run (which the deadlock keeps from returning: gosct gives up on it).
func TestVictimSubtestDeadlock(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		Run(t, "stuck", func(t *testing.T) {
			var mu sync.Mutex
			done := Chan(make(chan bool))
			Go(func() {
				Lock(&mu)
				Send(done, true)
				Unlock(&mu)
			})
			Lock(&mu)
			Recv(done)
			Unlock(&mu)
		})
	})
}

func TestSubtestDeadlockFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimSubtestDeadlock", wire.Config{Strategy: "dfs", Schedules: 5}), "deadlock")
	if !strings.Contains(b.Report, "t.Run (subtest stuck)") {
		t.Errorf("the report does not show the parent waiting in t.Run:\n%s", b.Report)
	}
}

// dpor reaches every order dfs reaches between a goroutine a subtest
// leaves running, the subtest's end, the parent's code after t.Run and a
// parallel subtest (the differential test of partial-order reduction, over
// the edges subtests.go gives it).
func TestSubtestOrdersUnderDPOR(t *testing.T) {
	if testing.Short() {
		t.Skip("explores every order of the subtests exhaustively (the whole suite runs it)")
	}
	got := outcomes(t, func(t *testing.T) string {
		var log noteLog
		note := log.note
		done := Chan(make(chan struct{}))
		Run(t, "a", func(t *testing.T) {
			Go(func() {
				note("g")
				Close(done)
			})
			note("a")
		})
		note("parent")
		Run(t, "p", func(t *testing.T) {
			Parallel(t)
			note("p")
		})
		Recv(done)
		return log.String()
	})
	wantOutcomes(t, got, "a g parent,a parent g,g a parent")
}

// noteLog is a log the goroutines of an execution append to, under a
// mutex of the model.
type noteLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *noteLog) note(s string) {
	Lock(&l.mu)
	l.lines = append(l.lines, s)
	Unlock(&l.mu)
}

func (l *noteLog) String() string { return strings.Join(l.lines, " ") }
