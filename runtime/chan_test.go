package runtime

import (
	"sort"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

func TestUnbufferedPingPong(t *testing.T) {
	x := check(t, "random", 50, func(t *testing.T) {
		c := Chan(make(chan int))
		done := Chan(make(chan bool))
		Go(func() {
			for i := 0; i < 3; i++ {
				Send(c, i)
			}
			Close(c)
			Send(done, true)
		})
		sum := 0
		for {
			v, ok := Recv2(c)
			if !ok {
				break
			}
			sum += v
		}
		if sum != 3 {
			t.Errorf("sum = %d, want 3", sum)
		}
		if !Recv(done) {
			t.Error("done = false")
		}
	})
	if x.schedules != 50 || x.bugs != 0 {
		t.Errorf("schedules %d bugs %d", x.schedules, x.bugs)
	}
}

// The outcomes an exhaustive search reaches must be exactly those Go
// allows. Two senders race on an unbuffered channel: both orders.
func TestOutcomesTwoSenders(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dfs", 1000, func(t *testing.T) {
		c := Chan(make(chan string))
		Go(func() { Send(c, "a") })
		Go(func() { Send(c, "b") })
		seen[Recv(c)+Recv(c)] = true
	})
	got := keys(seen)
	if strings.Join(got, ",") != "ab,ba" {
		t.Errorf("outcomes %v, want [ab ba]", got)
	}
}

// A buffered channel of capacity 1: with a receiver arriving late, the
// FIFO order of values is kept.
func TestOutcomesBufferedFIFO(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dfs", 1000, func(t *testing.T) {
		c := Chan(make(chan string, 1))
		done := Chan(make(chan bool))
		Go(func() { Send(c, "a"); Send(c, "b"); Send(done, true) })
		s := Recv(c) + Recv(c)
		Recv(done)
		seen[s] = true
	})
	if got := keys(seen); strings.Join(got, ",") != "ab" {
		t.Errorf("outcomes %v, want [ab]", got)
	}
}

// A select with two ready cases may take either.
func TestOutcomesSelect(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dfs", 1000, func(t *testing.T) {
		a := Chan(make(chan int, 1))
		b := Chan(make(chan int, 1))
		Send(a, 1)
		Send(b, 2)
		c0, c1 := OnRecv(a), OnRecv(b)
		switch Select(false, c0, c1) {
		case 0:
			seen["a"] = true
		case 1:
			seen["b"] = true
		}
	})
	if got := keys(seen); strings.Join(got, ",") != "a,b" {
		t.Errorf("outcomes %v, want [a b]", got)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestVictimDeadlock(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		a := Chan(make(chan int))
		b := Chan(make(chan int))
		Go(func() { Recv(a); Send(b, 1) })
		Recv(b)
		Send(a, 1)
	})
}

func TestDeadlockFound(t *testing.T) {
	evs := victim(t, "TestVictimDeadlock", wire.Config{Strategy: "random"})
	b := wantBug(t, evs, "deadlock")
	if b.Schedule != 1 || b.Trace == "" || !strings.Contains(b.Report, "chan receive") {
		t.Errorf("bug %+v", b)
	}
}

func TestVictimLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		c := Chan(make(chan int))
		Go(func() { Send(c, 1) }) // nobody receives
	})
}

func TestLeakFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimLeak", wire.Config{Strategy: "random"}), "leak")
	if !strings.Contains(b.Message, "chan send") {
		t.Errorf("message %q", b.Message)
	}
}

func TestVictimSendOnClosed(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		c := Chan(make(chan int, 1))
		done := Chan(make(chan bool))
		Go(func() { Send(c, 1); Send(done, true) })
		Close(c)
		Recv(done)
	})
}

func TestSendOnClosedFound(t *testing.T) {
	skipRace(t) // the send and the close race
	b := wantBug(t, victim(t, "TestVictimSendOnClosed", wire.Config{Strategy: "random", Schedules: 100}), "panic")
	if !strings.Contains(b.Message, "send on closed channel") {
		t.Errorf("message %q", b.Message)
	}
}

// A trace written for a bug replays it, 10 times out of 10.
func TestTraceReplays(t *testing.T) {
	skipRace(t)
	b := wantBug(t, victim(t, "TestVictimSendOnClosed", wire.Config{Strategy: "random", Seed: 7}), "panic")
	for i := 0; i < 10; i++ {
		evs := victim(t, "TestVictimSendOnClosed", wire.Config{Mode: "replay", Trace: b.Trace})
		r := wantBug(t, evs, "panic")
		if !r.Replayed {
			t.Fatalf("replay %d: bug not marked replayed: %+v", i, r)
		}
	}
}
