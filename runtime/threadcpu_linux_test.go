package runtime

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// The watchdog reads the CPU clock of the thread running the token
// holder: a goroutine's thread is found from its g, and its CPU time
// grows while it computes; a parked goroutine runs on no thread.
func TestThreadCPUOfAGoroutine(t *testing.T) {
	calibrated := make(chan bool)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		calibrateThreadCPU()
		calibrated <- threadCPUOK
	}()
	if !<-calibrated {
		if !haveGetg {
			t.Skip("no g pointer on this architecture")
		}
		t.Fatalf("g.m at %d and m.procid at %d do not hold the thread's id on this Go (%s): update threadcpu_linux.go", mOffsetGo123, procidOffsetGo123, runtime.Version())
	}
	var spinner, parked atomic.Pointer[byte]
	stop, park := make(chan struct{}), make(chan struct{})
	go func() {
		spinner.Store((*byte)(getg()))
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	go func() {
		parked.Store((*byte)(getg()))
		<-park
	}()
	defer close(park)
	defer close(stop)
	for spinner.Load() == nil || parked.Load() == nil {
		runtime.Gosched()
	}
	// The spinner's thread has run it for a millisecond more than at
	// the first look: it computes, and its clock shows it.
	var first time.Duration
	for deadline := time.Now().Add(time.Minute); ; {
		if time.Now().After(deadline) {
			t.Fatalf("the spinner's thread CPU clock did not advance a millisecond past %v in a minute", first)
		}
		tid := holderThread(unsafe.Pointer(spinner.Load()))
		if tid == 0 {
			runtime.Gosched() // between two threads: look again
			continue
		}
		cpu, ok := threadCPU(tid)
		if !ok {
			t.Fatalf("no CPU clock for thread %d", tid)
		}
		if first == 0 {
			first = cpu
		} else if cpu-first > time.Millisecond {
			break
		}
		runtime.Gosched()
	}
	// The parked goroutine's g holds no thread; eventually (it may still
	// be on its way to park).
	for deadline := time.Now().Add(time.Minute); holderThread(unsafe.Pointer(parked.Load())) != 0; {
		if time.Now().After(deadline) {
			t.Fatal("a parked goroutine still runs on a thread after a minute")
		}
		runtime.Gosched()
	}
}
