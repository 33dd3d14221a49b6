package runtime

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// Goroutines an ended schedule leaves behind. A schedule that stops early
// (its budget, a step limit, a goroutine stuck in uncontrolled code) may
// leave a subtest or a goroutine of its own in uncontrolled code. Once its
// execution is over, the model of its mutexes and channels is gone: were
// it to go on, its real operations would mix with the model of the next
// execution's (a Lock taken outside, an Unlock inside), or with those of
// the other leftovers, as no Go program can (two goroutines in one
// mutex). So it stops at its next hook.

// leftoverMu is shared by the two tests of TestVictimLeftoverSubtest, as a
// package's variable is by the tests of a package.
var leftoverMu sync.Mutex

// TestVictimLeftoverSubtest: the first test's subtest waits in uncontrolled
// code, and its schedule ends without it (a deadlock: nothing the
// schedule runs will release it), as does the schedule's replay. Released
// after that, it would lock leftoverMu outside any execution and unlock it
// inside the next test's execution, while that test's goroutine holds it
// there: a false "unlock of unlocked mutex". The second test alone has no
// bug.
func TestVictimLeftoverSubtest(t *testing.T) {
	victimOnly(t)
	release := make(chan struct{})
	var tookOnce, unlockedOnce sync.Once
	took, unlock, unlocked := make(chan struct{}), make(chan struct{}), make(chan struct{})
	stopped := make(chan struct{}, 2)
	leftoverStopped = func() { stopped <- struct{}{} }
	Test(t, func(t *testing.T) {
		Run(t, "late", func(t *testing.T) {
			<-release // uncontrolled, until after its schedule
			Lock(&leftoverMu)
			tookOnce.Do(func() { close(took) })
			<-unlock // uncontrolled
			Unlock(&leftoverMu)
			unlockedOnce.Do(func() { close(unlocked) })
		})
	})
	close(release)
	leftoverRan := false
	select {
	case <-took:
		leftoverRan = true
		fmt.Println("the leftover subtest took the mutex")
	case <-stopped:
		fmt.Println("the leftover subtest stopped at its next hook")
	}
	Test(t, func(t *testing.T) {
		Lock(&leftoverMu)
		if leftoverRan {
			close(unlock)
			<-unlocked // uncontrolled
		}
		Unlock(&leftoverMu)
	})
}

func TestLeftoverSubtestStops(t *testing.T) {
	evs, out := victimRun(t, "TestVictimLeftoverSubtest", wire.Config{Strategy: "random", Schedules: 1, UncontrolledWaitNS: int64(300 * time.Millisecond)}, "-test.v")
	if !strings.Contains(out, "the leftover subtest stopped at its next hook") {
		t.Errorf("the leftover subtest ran on after its schedule:\n%s", out)
	}
	// The first test's deadlock, and no other.
	for _, b := range bugs(evs) {
		if b.Test != "TestVictimLeftoverSubtest" || !strings.Contains(b.Message, "subtest late") {
			t.Errorf("bug reported: %s", b.Message)
		}
	}
}

// TestVictimBugBesideSubtest: a goroutine of a subtest panics while the
// subtest is at work. The subtest, released as the execution ends, runs
// on until it is over, so its parent's t.Run returns and the execution
// ends at once, without giving up on its test goroutine (which it does
// only after a wait, 2 s).
func TestVictimBugBesideSubtest(t *testing.T) {
	victimOnly(t)
	mainAbandoned = func() { fmt.Println("the test goroutine was abandoned") }
	Test(t, func(t *testing.T) {
		Run(t, "busy", func(t *testing.T) {
			Go(func() { panic("boom") })
			for i := 0; i < 100; i++ {
				Gosched()
			}
		})
	})
}

func TestBugBesideSubtestEndsAtOnce(t *testing.T) {
	evs, out := victimRun(t, "TestVictimBugBesideSubtest", wire.Config{Strategy: "random", Schedules: 1})
	wantBug(t, evs, "panic")
	if strings.Contains(out, "abandoned") {
		t.Errorf("the execution waited for its test goroutine, stuck in t.Run:\n%s", out)
	}
}
