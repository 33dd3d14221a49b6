package runtime

import (
	"os"
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
