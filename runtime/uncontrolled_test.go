package runtime

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// Tests of uncontrolled code. Code in this package is not rewritten: a
// plain channel operation is uncontrolled code, as in a library gosct does
// not instrument, and only explicit calls (Go, Lock, Send...) are hooks.

// TestBlockedHolderDetachedAtOnce: the holder blocks in uncontrolled code
// on what another controlled goroutine, runnable, will do (also in
// uncontrolled code). The runtime knows the holder is blocked and hands
// the token on: every schedule passes, and no detach waited for the
// computing timeout.
func TestBlockedHolderDetachedAtOnce(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		t.Skip("no g status here: detaches wait for the timeout")
	}
	x := check(t, "random", 30, func(t *testing.T) {
		ch := make(chan int) // not Chan: uncontrolled
		done := Chan(make(chan int, 2))
		Go(func() { Send(done, <-ch) })
		Go(func() { ch <- 1; Send(done, 2) })
		Recv(done)
		Recv(done)
	})
	if x.uncontrolled != 30 {
		t.Errorf("%d of 30 schedules marked as depending on uncontrolled code", x.uncontrolled)
	}
	if x.timedDetaches != 0 {
		t.Errorf("%d detaches waited for the timeout: the holder's state was not read", x.timedDetaches)
	}
}

// TestVictimStuckInUncontrolled: the test goroutine sleeps on a channel
// nobody feeds, while an uncontrolled goroutine keeps the process busy.
func TestVictimStuckInUncontrolled(t *testing.T) {
	victimOnly(t)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	Test(t, func(t *testing.T) {
		<-make(chan int)
	})
}

func TestStuckInUncontrolledCouldNotComplete(t *testing.T) {
	evs := victim(t, "TestVictimStuckInUncontrolled", wire.Config{UncontrolledWaitNS: int64(300 * time.Millisecond)})
	var errs []wire.Event
	var tests []wire.Event
	for _, e := range evs {
		switch e.Event {
		case "error":
			errs = append(errs, e)
		case "test":
			tests = append(tests, e)
		}
	}
	if len(bugs(evs)) != 0 || len(errs) != 1 {
		t.Fatalf("want one error and no bug, got %+v", evs)
	}
	if !strings.HasPrefix(errs[0].Message, "could not complete: blocked in uncontrolled code") || !strings.Contains(errs[0].Message, "G0 (test goroutine) in uncontrolled code at ") || !strings.Contains(errs[0].Message, "[chan receive]") {
		t.Errorf("error: %q", errs[0].Message)
	}
	// The exploration stopped cleanly: its test event was written.
	if len(tests) != 1 || tests[0].Schedules != 1 || tests[0].Message != "could not complete" {
		t.Errorf("test events %+v", tests)
	}
}

// TestVictimUncontrolledDeadlock: G1 holds a (controlled) mutex and blocks
// for ever in uncontrolled code; the test goroutine waits for the mutex.
func TestVictimUncontrolledDeadlock(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		locked := Chan(make(chan bool))
		Go(func() {
			Lock(&mu)
			Send(locked, true)
			<-make(chan int) // uncontrolled, for ever
		})
		Recv(locked)
		Lock(&mu)
	})
}

func TestUncontrolledDeadlock(t *testing.T) {
	evs := victim(t, "TestVictimUncontrolledDeadlock", wire.Config{Strategy: "dfs", Schedules: 20})
	b := wantBug(t, evs, "deadlock")
	// (Where in the code: this package's frames are gosct's own, left out
	// of reports; the e2e test of cmd/gosct checks the file:line.)
	if !strings.Contains(b.Message, "G1 (uncontrolled_test.go:") || !strings.Contains(b.Message, "in uncontrolled code at") || !strings.Contains(b.Message, "[chan receive]") {
		t.Errorf("the deadlock does not say where the goroutine in uncontrolled code is: %q", b.Message)
	}
}

// TestReleaseOfWhatWasTakenOutside: goroutines that locked a Mutex, a
// RWMutex (both ways) and counted a WaitGroup before the execution began
// (as one a library or an earlier test started) release them inside it.
// Their acquisitions went to the real objects, so the releases must too:
// reporting Go's fatal "unlock of unlocked mutex" or a negative counter
// would be a false alarm, and the real objects would stay held.
func TestReleaseOfWhatWasTakenOutside(t *testing.T) {
	var mu sync.Mutex
	var rw, rr sync.RWMutex
	var wg sync.WaitGroup
	taken := make(chan struct{})
	release := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		Lock(&mu)
		RWLock(&rw)
		RLock(&rr)
		Add(&wg, 1)
		close(taken)
		<-release // uncontrolled: it joins the execution at its next hook
		Unlock(&mu)
		RWUnlock(&rw)
		RUnlock(&rr)
		Done(&wg)
		close(finished)
	}()
	<-taken
	x := check(t, "random", 1, func(t *testing.T) {
		close(release)
		<-finished // uncontrolled too: the releases happen in the execution
	})
	if x.bugs != 0 {
		t.Errorf("%d bugs reported for releases of objects taken outside the execution", x.bugs)
	}
	// The real objects are free again.
	if !mu.TryLock() || !rw.TryLock() || !rr.TryLock() || wgCounter(&wg) != 0 {
		t.Errorf("a real object is still held: mutex, RWMutex, read-locked RWMutex or WaitGroup")
	}
}

// TestVictimLateSubtestFailure: a subtest (t.Run) waits in uncontrolled
// code on what comes only after its test; gosct ends the schedule without
// it (a deadlock here; "could not complete" where the wait is not seen),
// and the subtest, released, fails then. A panic of testing ("Fail in
// goroutine after ... has completed") would end the whole test binary.
func TestVictimLateSubtestFailure(t *testing.T) {
	victimOnly(t)
	release := make(chan struct{})
	dropped := make(chan any, 1)
	lateDropped = func(r any) { dropped <- r }
	Test(t, func(t *testing.T) {
		Run(t, "late", func(t *testing.T) {
			<-release // uncontrolled
			t.Errorf("after its schedule")
		})
	})
	close(release)
	fmt.Printf("dropped: %v\n", <-dropped)
	fmt.Println("the test binary goes on")
}

func TestLateSubtestFailureDropped(t *testing.T) {
	evs, out := victimRun(t, "TestVictimLateSubtestFailure", wire.Config{Schedules: 1, UncontrolledWaitNS: int64(300 * time.Millisecond)}, "-test.v")
	if strings.Contains(out, "panic:") || !strings.Contains(out, "the test binary goes on") {
		t.Fatalf("the late failure ended the test binary:\n%s", out)
	}
	if !strings.Contains(out, "dropped: Fail in goroutine after") || !strings.Contains(out, "gosct: TestVictimLateSubtestFailure/") {
		t.Errorf("the dropped panic is not said:\n%s", out)
	}
	// The exploration ended cleanly before the late failure: its test
	// event was written.
	var tests int
	for _, e := range evs {
		if e.Event == "test" {
			tests++
		}
	}
	if tests != 1 {
		t.Errorf("want the exploration's test event, got %+v", evs)
	}
}
