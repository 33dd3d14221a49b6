package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// A context whose virtual deadline expires: Done closes once every
// goroutine is blocked, Err is DeadlineExceeded, Deadline is the virtual
// deadline, and children see DeadlineExceeded too.
func TestContextTimeout(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		start := Now()
		ctx, cancel := WithTimeout(context.Background(), time.Second)
		defer cancel()
		if dl, ok := ctx.Deadline(); !ok || !within(dl.Sub(start), time.Second) {
			t.Errorf("Deadline = %v, %v; want %v", dl, ok, start.Add(time.Second))
		}
		child, cancelChild := context.WithCancel(ctx)
		defer cancelChild()
		if ctx.Err() != nil {
			t.Errorf("Err before the deadline = %v", ctx.Err())
		}
		Recv(ctx.Done())
		if d := Since(start); !within(d, time.Second) {
			t.Errorf("expired after %v", d)
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || context.Cause(ctx) != context.DeadlineExceeded {
			t.Errorf("Err %v, Cause %v", ctx.Err(), context.Cause(ctx))
		}
		select {
		case <-child.Done():
		default:
			t.Fatal("child not done with its parent")
		}
		if child.Err() != context.DeadlineExceeded {
			t.Errorf("child Err = %v", child.Err())
		}
	})
}

// A goroutine blocked on ctx.Done() (a channel the runtime does not own:
// it is polled) wakes when the virtual deadline cancels the context, end
// to end: its result reaches the test.
func TestContextTimeoutWakesWorker(t *testing.T) {
	check(t, "random", 50, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res := Chan(make(chan error))
		work := Chan(make(chan int)) // never fed: the worker waits for its ctx
		Go(func() {
			c0, c1 := OnRecv(ctx.Done()), OnRecv(work)
			if Select(false, c0, c1) == 0 {
				Send(res, ctx.Err())
				return
			}
			Send(res, nil)
		})
		if err := Recv(res); err != context.DeadlineExceeded {
			t.Errorf("worker got %v", err)
		}
	})
}

// The cancel function cancels at once with Canceled and disarms the
// timer: the clock no longer has a reason to move.
func TestContextCancel(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), time.Hour)
		Go(cancel)
		Recv(ctx.Done())
		if ctx.Err() != context.Canceled || context.Cause(ctx) != context.Canceled {
			t.Errorf("Err %v, Cause %v", ctx.Err(), context.Cause(ctx))
		}
		e, _ := enter()
		e.mu.Lock()
		pending := e.clock.pending()
		e.mu.Unlock()
		if pending {
			t.Error("timer still armed after cancel")
		}
		cancel() // idempotent
	})
}

// WithTimeoutCause and WithDeadlineCause: Err is DeadlineExceeded and
// Cause the given cause, for children too.
func TestContextCause(t *testing.T) {
	boom := errors.New("boom")
	check(t, "random", 10, func(t *testing.T) {
		ctx, cancel := WithTimeoutCause(context.Background(), time.Second, boom)
		defer cancel()
		child, cc := context.WithCancel(ctx)
		defer cc()
		Recv(child.Done())
		if ctx.Err() != context.DeadlineExceeded || context.Cause(ctx) != boom {
			t.Errorf("Err %v, Cause %v", ctx.Err(), context.Cause(ctx))
		}
		if child.Err() != context.DeadlineExceeded || context.Cause(child) != boom {
			t.Errorf("child Err %v, Cause %v", child.Err(), context.Cause(child))
		}
		ctx2, cancel2 := WithDeadlineCause(context.Background(), Now().Add(-time.Second), boom)
		defer cancel2()
		if ctx2.Err() != context.DeadlineExceeded || context.Cause(ctx2) != boom {
			t.Errorf("past deadline: Err %v, Cause %v", ctx2.Err(), context.Cause(ctx2))
		}
	})
}

// A parent with an earlier deadline wins; a cancelled parent cancels the
// child (through uncontrolled code: the waiting goroutine polls).
func TestContextParent(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		start := Now()
		parent, cancelParent := WithTimeout(context.Background(), time.Second)
		ctx, cancel := WithDeadline(parent, start.Add(time.Hour))
		defer cancel()
		pdl, _ := parent.Deadline()
		if dl, _ := ctx.Deadline(); !dl.Equal(pdl) {
			t.Errorf("Deadline = %v, want the parent's", dl)
		}
		Recv(ctx.Done())
		if d := Since(start); ctx.Err() != context.DeadlineExceeded || !within(d, time.Second) {
			t.Errorf("Err %v after %v", ctx.Err(), d)
		}
		cancelParent()

		p2, cancelP2 := context.WithCancel(context.Background())
		c2, cancelC2 := WithTimeout(p2, time.Hour)
		defer cancelC2()
		Go(cancelP2)
		Recv(c2.Done())
		if c2.Err() != context.Canceled {
			t.Errorf("child of a cancelled parent: Err %v", c2.Err())
		}
		if d := Since(start); !within(d, time.Second) {
			t.Errorf("clock moved to %v", d)
		}
	})
}

// context.AfterFunc on a context with a virtual deadline runs when it
// expires.
func TestContextAfterFunc(t *testing.T) {
	check(t, "random", 10, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), time.Second)
		defer cancel()
		ran := make(chan error, 1)
		context.AfterFunc(ctx, func() { ran <- ctx.Err() })
		Recv(ctx.Done())
		if err := Recv(ran); err != context.DeadlineExceeded {
			t.Errorf("AfterFunc saw %v", err)
		}
	})
}

// Pass-through: outside an execution the real context functions.
func TestContextPassThrough(t *testing.T) {
	if active.Load() != nil {
		t.Skip("an execution is active")
	}
	ctx, cancel := WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if ctx.Err() != context.DeadlineExceeded {
		t.Errorf("Err %v", ctx.Err())
	}
	dl := time.Now().Add(time.Hour)
	ctx2, cancel2 := WithDeadline(context.Background(), dl)
	if d, ok := ctx2.Deadline(); !ok || !d.Equal(dl) {
		t.Errorf("Deadline %v", d)
	}
	cancel2()
	if ctx2.Err() != context.Canceled {
		t.Errorf("Err %v", ctx2.Err())
	}
}

// A cancel racing with a result: either may win a select; the timeout
// never does, since it fires only when nothing else can run.
func TestOutcomesContextCancelRace(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dfs", 1000, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), time.Second)
		defer cancel()
		res := Chan(make(chan int, 1))
		Go(func() { Send(res, 1) })
		Go(cancel)
		c0, c1 := OnRecv(ctx.Done()), OnRecv(res)
		switch Select(false, c0, c1) {
		case 0:
			if ctx.Err() == context.Canceled {
				seen["canceled"] = true
			} else {
				seen["timeout"] = true
			}
		case 1:
			seen["result"] = true
		}
	})
	if got := strings.Join(keys(seen), ","); got != "canceled,result" {
		t.Errorf("outcomes %s, want canceled,result", got)
	}
}

func TestVictimContextLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), time.Hour)
		_ = cancel // bug: never called
		Go(func() { Recv(ctx.Done()) })
	})
}

// A worker waiting for a context whose timeout lies far beyond the end of
// the test and its grace period, never cancelled: only the timer can wake
// it, and it is still waiting: a leak (goleak's verdict; Go's detector
// would wait for the timer).
func TestContextLeakFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimContextLeak", wire.Config{Strategy: "random", Schedules: 5}), "leak")
	if !strings.Contains(b.Message, "chan receive") {
		t.Errorf("message %q", b.Message)
	}
}

// The same worker with a short timeout finishes soon after the test: not
// a leak.
func TestContextShortTimeoutNoLeak(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), 10*time.Millisecond)
		_ = cancel
		Go(func() { Recv(ctx.Done()) })
	})
}

// The common worker loop: tick until the context expires. The tenth tick
// falls a few steps of work after the deadline (the ticker is made after
// the context), within the early-firing window: the worker sees nine
// ticks, or ten when the deadline's goroutine is slow to cancel the
// context, as in Go; never fewer, and the clock reads the deadline.
func TestOutcomesTickerUntilDeadline(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dfs", 1000, func(t *testing.T) {
		start := Now()
		ctx, cancel := WithTimeout(context.Background(), time.Second)
		defer cancel()
		res := Chan(make(chan int))
		Go(func() {
			tk := NewTicker(100 * time.Millisecond)
			defer TickerStop(tk)
			n := 0
			for {
				c0, c1 := OnRecv(ctx.Done()), OnRecv(tk.C)
				if Select(false, c0, c1) == 0 {
					Send(res, n)
					return
				}
				n++
			}
		})
		seen[itoa(Recv(res))] = true
		if d := Since(start); !within(d, time.Second) {
			t.Errorf("finished at %v", d)
		}
	})
	if got := strings.Join(keys(seen), ","); got != "10,9" {
		t.Errorf("outcomes %s, want 10,9", got)
	}
}

// ownCtx is a context type of its own, as mock clocks define: package
// context cannot attach children to it and watches its Done channel.
type ownCtx struct {
	context.Context
	done chan struct{}
}

func (c *ownCtx) Done() <-chan struct{} { return c.done }

func (c *ownCtx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// Children of a context of its own type are cancelled by a goroutine of
// the execution once its Done channel is closed: a sleep of the test lets
// the cancellation through, as it lets every goroutine run. Children that
// outlive an uncancelled parent leave no leak behind.
func TestContextOwnParent(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		parent := &ownCtx{Context: context.Background(), done: Chan(make(chan struct{}))}
		c1, cancel1 := WithCancel(parent)
		defer cancel1()
		c2, cancel2 := WithCancelCause(parent)
		defer cancel2(nil)
		c3, cancel3 := WithTimeout(parent, time.Hour)
		defer cancel3()
		Go(func() { Close(parent.done) })
		Sleep(time.Second)
		for i, c := range []context.Context{c1, c2, c3} {
			select {
			case <-c.Done():
				if c.Err() != context.Canceled {
					t.Errorf("child %d: Err %v", i, c.Err())
				}
			default:
				t.Errorf("child %d not cancelled with its parent", i)
			}
		}

		alive := &ownCtx{Context: context.Background(), done: Chan(make(chan struct{}))}
		c4, cancel4 := WithCancel(alive)
		cancel4()
		Recv(c4.Done())
		_, cancel5 := WithTimeout(alive, time.Hour)
		_ = cancel5
	})
}

// A goroutine waiting on ctx.Done() that a goroutine of the execution
// cancels was woken by the execution: the report's source log does not
// name the channel as one uncontrolled code fed.
func TestCancelWakesDoneWaiterAsControlled(t *testing.T) {
	for _, how := range []string{"cancel", "timeout"} {
		e := runInputs(t, inputs{seed: 1, epoch: 1}, true, func(t *testing.T) {
			var ctx context.Context
			if how == "cancel" {
				var cancel context.CancelFunc
				ctx, cancel = WithCancel(context.Background())
				defer cancel()
				Go(func() {
					Sleep(time.Second) // the test goroutine blocks first
					cancel()
				})
			} else {
				var cancel context.CancelFunc
				ctx, cancel = WithTimeout(context.Background(), time.Second)
				defer cancel()
			}
			Recv(ctx.Done())
		})
		for _, s := range e.in.sources {
			if s.Kind == "uncontrolled channel" {
				t.Errorf("%s: source log names %q at %s", how, s.What, s.Pos)
			}
		}
	}
}
