package runtime

import (
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
