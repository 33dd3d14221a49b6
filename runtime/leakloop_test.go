package runtime

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// Two loops left behind by a test, each sleeping a nanosecond between
// attempts that take longer: each one's attempt brings the other's timer
// due, so they never both block and the clock never has to jump. Without
// a bound on the loop's timers they ran every step an execution may take
// and were "too long to explore"; they are leaked (goleak reports them).
func TestVictimRetryLoopsLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		for i := 0; i < 2; i++ {
			Go(func() {
				for {
					for j := 0; j < 20; j++ {
						Lock(&mu)
						Unlock(&mu)
					}
					Sleep(time.Nanosecond)
				}
			})
		}
	})
}

func TestRetryLoopsLeak(t *testing.T) {
	// dfs's first schedule runs one goroutine until it blocks: the two
	// loops take turns, never blocked together.
	b := wantBug(t, victim(t, "TestVictimRetryLoopsLeak", wire.Config{Strategy: "dfs", Schedules: 1, MinimizeNS: 1}), "leak")
	if b.Size == nil || b.Size.Steps > 20_000 {
		t.Errorf("size %+v: the loops ran far past a hundred rounds", b.Size)
	}
}

// A loop on a ticker whose work between ticks outlasts the period: the
// tick is in the channel's buffer whenever it receives, so it never
// blocks, and only the ticker's own fires tell the loop.
func TestVictimTickerLoopNeverBlocksLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Go(func() {
			tk := NewTicker(time.Nanosecond)
			for {
				for j := 0; j < 20; j++ {
					Lock(&mu)
					Unlock(&mu)
				}
				Recv(tk.C)
			}
		})
	})
}

func TestTickerLoopNeverBlocksLeak(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimTickerLoopNeverBlocksLeak", wire.Config{Strategy: "dfs", Schedules: 1, MinimizeNS: 1}), "leak")
	if b.Size == nil || b.Size.Steps > 20_000 {
		t.Errorf("size %+v: the loop ran far past a hundred rounds", b.Size)
	}
}

// A goroutine computing in uncontrolled code long enough to be detached,
// beside a ticker nobody reads: while it computes, the ticker's tick fills
// its buffer, and the clock must not go on jumping to a tick that would
// be dropped, holding the runtime's lock, while the goroutine waits for
// it to come back (go-cache's janitor under a loaded machine hung so).
// A goroutine looping on a ticker that returns at the first tick after
// the test closed what it serves (tidwall/buntdb's backgroundManager,
// `for range t.C` on a 1-s ticker) gets that tick in the grace period:
// no leak, whichever side of the close the ticks before fell.
func TestTickerLoopEndsAtNextTick(t *testing.T) {
	x := check(t, "dfs", 200, func(t *testing.T) {
		var mu sync.Mutex
		closed := false
		Go(func() {
			tk := NewTicker(time.Second)
			defer TickerStop(tk)
			for {
				Recv(tk.C)
				Lock(&mu)
				c := closed
				Unlock(&mu)
				if c {
					return
				}
			}
		})
		Sleep(time.Second)
		Lock(&mu)
		closed = true
		Unlock(&mu)
	})
	if x.schedules < 2 {
		t.Errorf("%d schedules", x.schedules)
	}
}

func TestVictimDetachedBesideUnreadTicker(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		tk := NewTicker(time.Millisecond)
		defer TickerStop(tk)
		done := Chan(make(chan int))
		Go(func() {
			n := 0
			for until := time.Now().Add(300 * time.Millisecond); time.Now().Before(until); {
				n++ // uncontrolled: real computing, no hook
			}
			Send(done, n)
		})
		Recv(done)
	})
}

func TestDetachedBesideUnreadTicker(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	c := wire.Config{Mode: "explore", Strategy: "random", Schedules: 2, Seed: 1, Results: filepath.Join(dir, "r.jsonl"), TraceDir: dir}
	cfg, _ := json.Marshal(c)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestVictimDetachedBesideUnreadTicker$", "-test.count=1")
	cmd.Env = append(os.Environ(), victimEnv+"=1", wire.EnvConfig+"="+string(cfg))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the execution hung:\n%s", out)
	}
	for _, e := range readEvents(t, c.Results) {
		if e.Event == "bug" || e.Event == "error" {
			t.Errorf("%s: %s", e.Event, e.Message)
		}
	}
	if err != nil {
		t.Errorf("%v:\n%s", err, out)
	}
}
