package runtime

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

func TestMutexPassThrough(t *testing.T) {
	var mu sync.Mutex
	Lock(&mu)
	if mu.TryLock() {
		t.Fatal("the real mutex is not locked after Lock")
	}
	if TryLock(&mu) {
		t.Fatal("TryLock of a locked mutex succeeded")
	}
	Unlock(&mu)
	if !TryLock(&mu) {
		t.Fatal("TryLock of an unlocked mutex failed")
	}
	Unlock(&mu)
	var l sync.Locker = &mu
	LockerLock(l)
	if mu.TryLock() {
		t.Fatal("LockerLock did not lock")
	}
	LockerUnlock(l)
	if !mu.TryLock() {
		t.Fatal("LockerUnlock did not unlock")
	}
}

// Two goroutines increment a counter under a mutex: never a lost update.
func TestOutcomesCounterMutex(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var mu sync.Mutex
		n := 0
		inc := func() {
			Lock(&mu)
			Store(&n, Load(&n)+1)
			Unlock(&mu)
		}
		done := Chan(make(chan bool))
		Go(func() { inc(); Send(done, true) })
		inc()
		Recv(done)
		return itoa(n)
	}), "2")
}

// Any goroutine blocked in Lock may win the mutex when it is unlocked,
// whatever order they blocked in, as in Go.
func TestOutcomesMutexWaiters(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var mu sync.Mutex
		order := ""
		Lock(&mu)
		for _, id := range []string{"a", "b"} {
			id := id
			Go(func() {
				Lock(&mu)
				order += id
				Unlock(&mu)
			})
		}
		Unlock(&mu)
		Lock(&mu) // the test goroutine competes too
		defer Unlock(&mu)
		return "[" + order + "]"
	}), "[],[a],[ab],[b],[ba]")
	// The same with a blocking before b for sure: b may still win.
	seen := map[string]bool{}
	check(t, "random", 200, func(t *testing.T) {
		var mu sync.Mutex
		order := ""
		Lock(&mu)
		j := newJoiner()
		j.Go(func() { Lock(&mu); order += "a"; Unlock(&mu) })
		waitBlocked(1)
		j.Go(func() { Lock(&mu); order += "b"; Unlock(&mu) })
		waitBlocked(2)
		Unlock(&mu)
		j.Wait(2)
		seen[order] = true
	})
	wantOutcomes(t, keys(seen), "ab,ba")
}

// TryLock sees the mutex held only while another goroutine holds it.
func TestOutcomesTryLock(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var mu sync.Mutex
		j := newJoiner()
		j.Go(func() {
			Lock(&mu)
			Unlock(&mu)
		})
		ok := TryLock(&mu)
		if ok {
			Unlock(&mu)
		}
		j.Wait(1)
		if ok {
			return "locked"
		}
		return "busy"
	}), "busy,locked")
}

// A goroutine woken by Unlock that loses the mutex to another waits again:
// the model never lets two goroutines hold it.
func TestMutexExclusion(t *testing.T) {
	check(t, "random", 300, func(t *testing.T) {
		var mu sync.Mutex
		in := 0
		j := newJoiner()
		for i := 0; i < 3; i++ {
			j.Go(func() {
				for k := 0; k < 3; k++ {
					Lock(&mu)
					in++
					if in != 1 {
						t.Errorf("%d goroutines in the critical section", in)
					}
					Gosched()
					in--
					Unlock(&mu)
				}
			})
		}
		j.Wait(3)
	})
}

func TestVictimDoubleLock(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Lock(&mu)
		Lock(&mu) // not reentrant
	})
}

func TestDoubleLockDeadlock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimDoubleLock", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "mutex lock (mutex held by G0)") {
		t.Errorf("message %q", b.Message)
	}
}

// A Mutex has no owner: the goroutine a locker starts may unlock it, so
// the locker waiting for it again is no deadlock while that goroutine can
// run (asaskevich/EventBus's transactional handlers: Publish locks the
// handler, the goroutine running it unlocks it after a sleep, and the next
// Publish waits for it).
func TestMutexHandedToNewGoroutine(t *testing.T) {
	wantProof(t, check(t, "dfs", 1000, func(t *testing.T) {
		var mu sync.Mutex
		for i := 0; i < 2; i++ {
			Lock(&mu)
			Go(func() {
				Sleep(time.Second)
				Unlock(&mu)
			})
		}
		Lock(&mu)
		Unlock(&mu)
	}))
}

// The same hand-off to a goroutine that existed before the lock, once it
// has unlocked a mutex another goroutine locked.
func TestMutexHandedOverChannel(t *testing.T) {
	wantProof(t, check(t, "dfs", 1000, func(t *testing.T) {
		var mu sync.Mutex
		take, back := Chan(make(chan bool)), Chan(make(chan bool))
		Go(func() {
			for i := 0; i < 2; i++ {
				Recv(take)
				Sleep(time.Second)
				Unlock(&mu)
				Send(back, true)
			}
		})
		Lock(&mu)
		Send(take, true)
		Recv(back)
		Lock(&mu)
		Send(take, true)
		Lock(&mu) // waits for the goroutine's unlock
		Unlock(&mu)
		Recv(back)
	}))
}

// A RWMutex has no owner either: a reader waiting for the write lock its
// own goroutine took, while a goroutine started after the lock will
// unlock it (ThreeDotsLabs/watermill's persistent gochannel: Subscribe
// write-locks the subscribers and the goroutine it starts unlocks them;
// the next Publish read-locks them), is no deadlock.
func TestRWMutexHandedToNewGoroutineRLock(t *testing.T) {
	wantProof(t, check(t, "dfs", 1000, func(t *testing.T) {
		var rw sync.RWMutex
		RWLock(&rw)
		Go(func() {
			Sleep(time.Second)
			RWUnlock(&rw)
		})
		RLock(&rw)
		RUnlock(&rw)
	}))
}

// Nor is a writer waiting for a read lock of its own goroutine that a
// goroutine started after it will release (Go ties no read lock to a
// goroutine).
func TestRWMutexReadLockHandedToNewGoroutine(t *testing.T) {
	wantProof(t, check(t, "dfs", 1000, func(t *testing.T) {
		var rw sync.RWMutex
		RLock(&rw)
		Go(func() {
			Sleep(time.Second)
			RUnlock(&rw)
		})
		RWLock(&rw)
		RWUnlock(&rw)
	}))
}

// A goroutine locking a mutex it holds, beside one that loops for ever but
// was started before the lock, is still reported at once.
func TestVictimDoubleLockBesideLoop(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Go(func() {
			for {
				Sleep(time.Second)
			}
		})
		Lock(&mu)
		Lock(&mu)
	})
}

func TestDoubleLockBesideLoopDeadlock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimDoubleLockBesideLoop", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "waiting for a lock another of them holds") {
		t.Errorf("message %q", b.Message)
	}
}

// A goroutine started while the mutex was held that ends without
// unlocking it: the locker's second Lock is a deadlock once nothing else
// can move.
func TestVictimHandOffForgotten(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Lock(&mu)
		Go(func() { Sleep(time.Second) })
		Lock(&mu)
	})
}

func TestHandOffForgottenDeadlock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimHandOffForgotten", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "mutex held by G0") {
		t.Errorf("message %q", b.Message)
	}
}

func TestVictimABBA(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var a, b sync.Mutex
		done := Chan(make(chan bool))
		Go(func() {
			Lock(&b)
			Lock(&a)
			Unlock(&a)
			Unlock(&b)
			Send(done, true)
		})
		Lock(&a)
		Lock(&b)
		Unlock(&b)
		Unlock(&a)
		Recv(done)
	})
}

func TestABBADeadlock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimABBA", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "held by G1") || !strings.Contains(b.Message, "held by G0") {
		t.Errorf("message %q", b.Message)
	}
}

func TestVictimUnlockUnlocked(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Unlock(&mu)
	})
}

func TestUnlockUnlockedFatal(t *testing.T) {
	wantFatal(t, "TestVictimUnlockUnlocked", "sync: unlock of unlocked mutex")
}

// Two goroutines unlock a mutex locked once: the second unlock is fatal,
// whichever goroutine makes it.
func TestVictimUnlockTwiceInGoroutine(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Lock(&mu)
		done := Chan(make(chan bool))
		Go(func() { Unlock(&mu); Send(done, true) })
		Unlock(&mu)
		Recv(done)
	})
}

func TestUnlockTwiceFatal(t *testing.T) {
	wantFatal(t, "TestVictimUnlockTwiceInGoroutine", "sync: unlock of unlocked mutex")
}

// A pass-through Unlock of a mutex locked in a finished execution's model
// must not kill the process (see unlockLeftover).
func TestUnlockLeftover(t *testing.T) {
	var mu sync.Mutex
	check(t, "random", 1, func(t *testing.T) { Lock(&mu) })
	Unlock(&mu) // no execution is active: the real, unlocked, mutex
	if !mu.TryLock() {
		t.Fatal("mutex left locked")
	}
	mu.Unlock()
}

func BenchmarkLockUnlockPassThrough(b *testing.B) {
	var mu sync.Mutex
	for i := 0; i < b.N; i++ {
		Lock(&mu)
		Unlock(&mu)
	}
}

// BenchmarkLockUnlockControlled is a Lock and an Unlock in an execution,
// two scheduling points without a switch.
func BenchmarkLockUnlockControlled(b *testing.B) {
	runExec(sameFirst{}, func() {
		var mu sync.Mutex
		active.Load().set.maxSteps = 1 << 62 // not a livelock
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Lock(&mu)
			Unlock(&mu)
		}
		b.StopTimer()
	})
}
