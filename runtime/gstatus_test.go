package runtime

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRunState puts goroutines in known states and checks what runState
// reads from their g against it, including wait reasons calibration did
// not see (learnt from the traceback).
func TestRunState(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		if haveGetg {
			t.Fatalf("g status calibration failed on an architecture that supports it")
		}
		t.Skip("no g status on this architecture")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stop := make(chan struct{})
	var mu sync.Mutex
	mu.Lock()
	var wg sync.WaitGroup
	cases := []struct {
		name  string
		want  gRun
		why   string
		block func()
	}{
		{"chan", runBlocked, "chan receive", func() { <-stop }},
		{"mutex", runBlocked, "sync.Mutex.Lock", func() { mu.Lock(); mu.Unlock() }},
		{"pipe", runBlocked, "IO wait", func() { var b [1]byte; r.Read(b[:]) }},
		{"sleep", runBlocked, "sleep", func() { time.Sleep(200 * time.Millisecond) }},
		{"wg", runBlocked, "sync.WaitGroup.Wait", func() { var w2 sync.WaitGroup; w2.Add(1); go func() { <-stop; w2.Done() }(); w2.Wait() }},
		{"spin", runRunning, "", func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
			}
		}},
	}
	started := make(chan int, len(cases))
	gs := make([]goState, len(cases))
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gs[i] = goState{getg(), goid()}
			started <- i
			c.block()
		}()
	}
	for range cases {
		<-started
	}
	for i, c := range cases {
		var got gRun
		var why string
		for try := 0; try < 2000; try++ {
			got, why = runState(gs[i].gp, gs[i].id)
			if got == c.want && why == c.why {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		if got != c.want || why != c.why {
			t.Errorf("%s: runState = %d %q, want %d %q", c.name, got, why, c.want, c.why)
		}
	}
	close(stop)
	mu.Unlock()
	w.Write([]byte{1})
	w.Close()
	wg.Wait()
	// An exited goroutine is gone (its g dead, or reused with another id).
	for i, c := range cases {
		var got gRun
		for try := 0; try < 2000; try++ {
			if got, _ = runState(gs[i].gp, gs[i].id); got == runGone {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		if got != runGone {
			t.Errorf("%s: after exit, runState = %d, want gone", c.name, got)
		}
	}
}

// A goroutine behind another's read of the same file waits on a bare
// runtime semaphore (internal/poll's lock of the file), the wait reason
// an allocation has while a garbage collection starts: runState takes it
// for a pause, not for a wait on the program (a channel, a sync lock),
// which the watchdog detaches a holder for at once.
func TestRunStateSemaphore(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		t.Skip("no g status on this architecture")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	read := func() goState {
		at := make(chan goState)
		wg.Go(func() {
			at <- goState{getg(), goid()}
			var b [1]byte
			r.Read(b[:])
		})
		return <-at
	}
	await := func(g goState, want gRun, wantWhy string) {
		t.Helper()
		var got gRun
		var why string
		for try := 0; try < 2000; try++ {
			if got, why = runState(g.gp, g.id); got == want && why == wantWhy {
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
		t.Errorf("runState = %d %q, want %d %q", got, why, want, wantWhy)
	}
	first := read()
	await(first, runBlocked, "IO wait")
	second := read()
	await(second, runTransient, "semacquire")
	w.Write([]byte{1, 2})
	w.Close()
	wg.Wait()
}

// TestGstatusLayout checks calibration against this Go's own source
// (runtime2.go in GOROOT): the fields around goid and the status values.
func TestGstatusLayout(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		t.Skip("no g status on this architecture")
	}
	src, err := os.ReadFile(filepath.Join(goruntime.GOROOT(), "src", "runtime", "runtime2.go"))
	if err != nil {
		t.Skipf("Go's source is not installed: %v", err)
	}
	s := string(src)
	g := s[strings.Index(s, "type g struct {"):]
	g = g[:strings.Index(g, "\n}\n")]
	var fields []string
	for _, line := range strings.Split(g, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && !strings.HasPrefix(f[0], "//") {
			fields = append(fields, f[0]+" "+f[1])
		}
	}
	want := []string{"atomicstatus atomic.Uint32", "stackLock uint32", "goid uint64", "schedlink guintptr", "waitsince int64", "waitreason waitReason"}
	at := -1
	for i := range fields {
		if fields[i] == want[0] {
			at = i
		}
	}
	if at < 0 || at+len(want) > len(fields) {
		t.Fatalf("runtime2.go's g has no atomicstatus field: calibration is on its own; fields: %v", fields)
	}
	if got := fields[at : at+len(want)]; strings.Join(got, ";") != strings.Join(want, ";") {
		t.Logf("runtime2.go's g around goid: %v (calibration found status at goid%+d, reason at goid%+d)", got, statusOffset-goidOffset, reasonOffset-goidOffset)
		t.Skip("another layout than the one this test knows: calibration searched for it")
	}
	if statusOffset != goidOffset-8 || reasonOffset != goidOffset+24 {
		t.Errorf("calibrated status at goid%+d and reason at goid%+d; runtime2.go says -8 and +24", statusOffset-goidOffset, reasonOffset-goidOffset)
	}
	for name, v := range map[string]int{"_Grunnable": gsRunnable, "_Grunning": gsRunning, "_Gsyscall": gsSyscall, "_Gwaiting": gsWaiting, "_Gdead": gsDead} {
		if !strings.Contains(s, name+" // "+strconv.Itoa(v)) {
			t.Errorf("runtime2.go does not say %s = %d", name, v)
		}
	}
}

// A wait reason is never named after another one. A holder under a busy
// collector moves between an assist ("GC assist marking") and its park on
// the token ("chan receive") faster than a traceback is taken; named
// after the park, the assist had the watchdog detach every holder the
// collector paused, and a replay under -race stopped following its trace.
func TestNoteReasonKeepsNamesApart(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		t.Skip("no g status on this architecture")
	}
	known := -1
	reasonMu.Lock()
	for r, n := range reasonNames {
		if n == "chan receive" {
			known = r
		}
	}
	reasonMu.Unlock()
	if known < 0 {
		t.Fatal("calibration did not name the channel receive")
	}
	const unused = 255 // Go has fewer than 255 wait reasons
	if name, class := noteReason(unused, "chan receive"); name != "" || class != 0 {
		t.Errorf("reason %d was named %q (class %d), the name of reason %d", unused, name, class, known)
	}
	reasonMu.Lock()
	got := reasonNames[unused]
	reasonMu.Unlock()
	if got != "" {
		t.Errorf("reason %d is now named %q", unused, got)
	}
	if name, class := noteReason(uint8(known), "chan receive"); name != "chan receive" || class != 1 {
		t.Errorf("the channel receive's own reason: %q, class %d", name, class)
	}
}

// Go's goroutine for finalizers, back in its loop after running one, is
// left out of tracebacks, so its wait reason has no name to learn: it is
// blocked all the same (hiddenWait), not computing. A finalizer of
// instrumented code takes the token at its first hook and keeps it after
// returning; taken for computing, it kept the token from the execution
// for the watchdog's 100 ms.
func TestRunStateFinalizerGoroutine(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		t.Skip("no g status on this architecture")
	}
	at := make(chan goState, 1)
	func() {
		x := new([64]byte)
		goruntime.SetFinalizer(x, func(*[64]byte) { at <- goState{getg(), goid()} })
	}()
	var fin goState
	for fin.gp == nil {
		goruntime.GC()
		select {
		case fin = <-at:
		case <-time.After(10 * time.Millisecond):
		}
	}
	for try := 0; ; try++ {
		got, why := runState(fin.gp, fin.id)
		if got == runBlocked && why == hiddenWait {
			break
		}
		if try == 2000 {
			t.Fatalf("runState = %d %q, want blocked", got, why)
		}
		time.Sleep(100 * time.Microsecond)
	}
}
