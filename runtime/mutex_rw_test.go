package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

func TestRWMutexPassThrough(t *testing.T) {
	var rw sync.RWMutex
	RLock(&rw)
	if !TryRLock(&rw) {
		t.Fatal("a second read lock failed")
	}
	if RWTryLock(&rw) {
		t.Fatal("write lock while read-locked")
	}
	RUnlock(&rw)
	RUnlock(&rw)
	RWLock(&rw)
	if rw.TryRLock() {
		t.Fatal("the real RWMutex is not write-locked")
	}
	RWUnlock(&rw)
	l := RLocker(&rw)
	LockerLock(l)
	if rw.TryLock() {
		t.Fatal("RLocker did not read-lock")
	}
	LockerUnlock(l)
	if !RWTryLock(&rw) {
		t.Fatal("RWMutex left locked")
	}
	RWUnlock(&rw)
}

// A writer updates two variables under the write lock; a reader under the
// read lock sees both old or both new. Without the lock, every mix.
func TestOutcomesRWMutex(t *testing.T) {
	run := func(locked bool) []string {
		return outcomes(t, func(t *testing.T) string {
			var rw sync.RWMutex
			x, y := 0, 0
			done := Chan(make(chan bool))
			Go(func() {
				if locked {
					RWLock(&rw)
				}
				Store(&x, 1)
				Store(&y, 1)
				if locked {
					RWUnlock(&rw)
				}
				Send(done, true)
			})
			if locked {
				RLock(&rw)
			}
			s := itoa(Load(&x)) + itoa(Load(&y))
			if locked {
				RUnlock(&rw)
			}
			Recv(done)
			return s
		})
	}
	wantOutcomes(t, run(true), "00,11")
	if !raceEnabled { // -race rightly reports the race
		wantOutcomes(t, run(false), "00,01,10,11")
	}
}

// Readers share the lock: a second goroutine read-locks while the first
// holds a read lock, never while a writer holds it.
func TestOutcomesRWMutexReaders(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var rw sync.RWMutex
		done := Chan(make(chan bool))
		RLock(&rw)
		Go(func() {
			ok := TryRLock(&rw)
			if ok {
				RUnlock(&rw)
			}
			Send(done, ok)
		})
		w := Chan(make(chan bool))
		Go(func() {
			ok := RWTryLock(&rw)
			if ok {
				RWUnlock(&rw)
			}
			Send(w, ok)
		})
		r1, w1 := Recv(done), Recv(w)
		RUnlock(&rw)
		return boolStr(r1) + boolStr(w1)
	}), "TF")
}

func boolStr(b bool) string {
	if b {
		return "T"
	}
	return "F"
}

// Go's writer preference: a pending Lock blocks new readers, so a reader
// that read-locks twice deadlocks with a writer arriving in between.
func TestVictimRWDeadlock(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var rw sync.RWMutex
		done := Chan(make(chan bool))
		RLock(&rw)
		Go(func() {
			RWLock(&rw)
			RWUnlock(&rw)
			Send(done, true)
		})
		RLock(&rw)
		RUnlock(&rw)
		RUnlock(&rw)
		Recv(done)
	})
}

func TestRWDeadlockFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimRWDeadlock", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "rwmutex rlock (rwmutex write-locked or a writer waiting: G1)") ||
		!strings.Contains(b.Message, "rwmutex lock (readers to leave: G0)") {
		t.Errorf("message %q", b.Message)
	}
}

// Readers blocked behind a writer get in at its Unlock, before a writer
// that was waiting too.
func TestRWMutexReadersBeforeNextWriter(t *testing.T) {
	check(t, "random", 100, func(t *testing.T) {
		var rw sync.RWMutex
		order := ""
		j := newJoiner()
		RWLock(&rw)
		j.Go(func() { RLock(&rw); order += "r"; RUnlock(&rw) })
		waitBlocked(1)
		j.Go(func() { RWLock(&rw); order += "w"; RWUnlock(&rw) })
		waitBlocked(2)
		RWUnlock(&rw)
		j.Wait(2)
		if order != "rw" {
			t.Errorf("order %q, want rw", order)
		}
	})
}

// A Locker from RLocker, or sync's own one made outside the execution,
// read-locks in the model.
func TestRLockerInModel(t *testing.T) {
	var rw sync.RWMutex
	std := rw.RLocker()
	check(t, "dfs", 100, func(t *testing.T) {
		for _, l := range []sync.Locker{RLocker(&rw), std} {
			LockerLock(l)
			if !TryRLock(&rw) {
				t.Error("readers do not share")
			} else {
				RUnlock(&rw)
			}
			if RWTryLock(&rw) {
				t.Error("write lock while read-locked")
			}
			LockerUnlock(l)
			if !RWTryLock(&rw) {
				t.Error("not unlocked")
			} else {
				LockerUnlock(&rw)
			}
		}
	})
	if !rw.TryLock() {
		t.Fatal("the real RWMutex was touched")
	}
}

func TestVictimRUnlockUnlocked(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var rw sync.RWMutex
		RLock(&rw)
		RUnlock(&rw)
		RUnlock(&rw)
	})
}

func TestRUnlockUnlockedFatal(t *testing.T) {
	wantFatal(t, "TestVictimRUnlockUnlocked", "sync: RUnlock of unlocked RWMutex")
}

func TestVictimRWUnlockUnlocked(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var rw sync.RWMutex
		RLock(&rw)
		RWUnlock(&rw)
	})
}

func TestRWUnlockUnlockedFatal(t *testing.T) {
	wantFatal(t, "TestVictimRWUnlockUnlocked", "sync: Unlock of unlocked RWMutex")
}
