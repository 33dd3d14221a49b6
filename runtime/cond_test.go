package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

func TestCondPassThrough(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	done := make(chan bool)
	go func() {
		Lock(&mu)
		for !ready {
			CondWait(c)
		}
		Unlock(&mu)
		done <- true
	}()
	Lock(&mu)
	ready = true
	Broadcast(c)
	Unlock(&mu)
	<-done
}

// Producer and consumer with the predicate loop: under every schedule the
// consumer gets the value and nobody blocks forever.
func TestOutcomesCondProducerConsumer(t *testing.T) {
	for _, name := range []string{"mutex", "rwmutex", "locker"} {
		t.Run(name, func(t *testing.T) {
			wantOutcomes(t, outcomes(t, func(t *testing.T) string {
				var mu sync.Mutex
				var rw sync.RWMutex
				var l sync.Locker = &mu
				switch name {
				case "rwmutex":
					l = &rw
				case "locker":
					l = lockerFunc{&mu}
				}
				c := sync.NewCond(l)
				v := 0
				Go(func() {
					LockerLock(c.L)
					Store(&v, 7)
					Signal(c)
					LockerUnlock(c.L)
				})
				LockerLock(c.L)
				for Load(&v) == 0 {
					CondWait(c)
				}
				got := Load(&v)
				LockerUnlock(c.L)
				return itoa(got)
			}), "7")
		})
	}
}

// lockerFunc is a Locker of the user's, not a sync type: Wait calls its
// methods.
type lockerFunc struct{ mu *sync.Mutex }

func (l lockerFunc) Lock()   { Lock(l.mu) }
func (l lockerFunc) Unlock() { Unlock(l.mu) }

// Signal wakes the goroutine that has waited longest; Broadcast the rest.
func TestCondSignalFIFO(t *testing.T) {
	check(t, "random", 100, func(t *testing.T) {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		arrived, woke := "", ""
		j := newJoiner()
		for _, id := range []string{"a", "b", "c"} {
			id := id
			j.Go(func() {
				Lock(&mu)
				arrived += id
				CondWait(c)
				woke += id
				Unlock(&mu)
			})
		}
		Lock(&mu)
		for len(arrived) < 3 {
			Unlock(&mu)
			Gosched()
			Lock(&mu)
		}
		Signal(c)
		Unlock(&mu)
		j.Wait(1)
		Lock(&mu)
		if woke != arrived[:1] {
			t.Errorf("arrived %q, Signal woke %q", arrived, woke)
		}
		Broadcast(c)
		Unlock(&mu)
		j.Wait(2)
		if len(woke) != 3 {
			t.Errorf("Broadcast woke %q", woke)
		}
	})
}

// A Signal sent before the consumer waits is lost: without a predicate
// loop, the consumer can block forever.
func TestVictimCondMissedSignal(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		Go(func() {
			Lock(&mu)
			Signal(c)
			Unlock(&mu)
		})
		Lock(&mu)
		CondWait(c)
		Unlock(&mu)
	})
}

func TestCondMissedSignalDeadlock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimCondMissedSignal", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "cond wait") {
		t.Errorf("message %q", b.Message)
	}
}

func TestVictimCondWaitUnlocked(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		CondWait(sync.NewCond(&mu))
	})
}

func TestCondWaitUnlockedFatal(t *testing.T) {
	wantFatal(t, "TestVictimCondWaitUnlocked", "sync: unlock of unlocked mutex")
}
