package introspect

import (
	"math/rand"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDump: the dump of all goroutines is the program's as go test runs
// it: testing's goroutine, the test's, the three workers, each created
// where its go statement is and blocked where it waits; no frame and no
// goroutine of anything else.
func TestDump(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	Park(3, stop)

	// A worker may not have reached its receive yet: wait, as leak
	// checkers do, until none is runnable.
	var dump string
	var gs []string
	for settled := false; !settled; {
		runtime.Gosched()
		buf := make([]byte, 1<<20)
		dump = string(buf[:runtime.Stack(buf, true)])
		gs = strings.Split(strings.TrimSpace(dump), "\n\n")
		settled = true
		for _, g := range gs[1:] {
			if strings.Contains(g, "introspect.worker(") && !strings.Contains(strings.SplitN(g, "\n", 2)[0], "[chan receive") {
				settled = false
			}
		}
	}
	if len(gs) != 5 {
		t.Errorf("%d goroutines, want 5 (testing's, the test's, 3 workers):\n%s", len(gs), dump)
	}
	workers := 0
	for _, g := range gs {
		if !strings.Contains(g, "introspect.worker(") {
			continue
		}
		workers++
		if !strings.Contains(g, "introspect.go:22") {
			t.Errorf("worker not waiting on stop:\n%s", g)
		}
		if !strings.Contains(g, "created by example.com/e2emod/introspect.Park in goroutine") {
			t.Errorf("worker not created by Park:\n%s", g)
		}
	}
	if workers != 3 {
		t.Errorf("%d workers in the dump, want 3:\n%s", workers, dump)
	}
	if !strings.Contains(gs[0], "[running]:") || !strings.Contains(gs[0], "introspect.TestDump(") || !strings.Contains(gs[0], "testing.tRunner(") {
		t.Errorf("the caller's goroutine is not the test's, first and running:\n%s", gs[0])
	}
	if strings.Contains(dump, "github.com/gosct/") {
		t.Errorf("the dump shows gosct:\n%s", dump)
	}
}

// TestDumpClosure: a closure of a test function is named as Go names it
// in the source.
func TestDumpClosure(t *testing.T) {
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1<<16)
		got = string(buf[:runtime.Stack(buf, false)])
	}()
	<-done
	if !strings.Contains(got, "introspect.TestDumpClosure.func1(") || !strings.Contains(got, "created by example.com/e2emod/introspect.TestDumpClosure in goroutine") {
		t.Errorf("dump of the closure's goroutine:\n%s", got)
	}
}

// TestSeed: after rand.Seed the package-level functions repeat the
// sequence the seed fixes.
func TestSeed(t *testing.T) {
	rand.Seed(1234)
	a, x := Mask(), rand.Intn(4)
	rand.Seed(1234)
	if b, y := Mask(), rand.Intn(4); a != b || x != y {
		t.Errorf("after the same seed: mask %v then %v, Intn(4) %d then %d", a, b, x, y)
	}
}

// TestScheduleDoesNotAllocate: testing.AllocsPerRun sees the program's own
// allocations, none here, as under go test: the variables a deferred
// closure captures stay on the stack (otter's
// TestCache_ScheduleDrainBuffersDoesNotAllocate).
func TestScheduleDoesNotAllocate(t *testing.T) {
	d := NewDrainer()
	if n := testing.AllocsPerRun(100, d.Schedule); n != 0 {
		t.Errorf("%v allocations per Schedule", n)
	}
	if d.drained.Load() != 101 {
		t.Errorf("%d drains, want 101", d.drained.Load())
	}
}

// TestCollected: a Cache the test drops is collected, as under go test,
// after the test locked its mutex, wrote its fields and ran its Once:
// gosct's models of those must not keep it alive (otter's
// TestCache_GCWithCallbackHoldingTheCache).
func TestCollected(t *testing.T) {
	var cleaned atomic.Bool
	var inner *core
	func() {
		c := NewCache()
		c.Put("a", 1)
		if v, ok := c.Get("a"); !ok || v != 1 {
			t.Errorf("Get(a) = %v, %v", v, ok)
		}
		inner = c.core
		runtime.SetFinalizer(c, func(c *Cache) {
			c.Stop()
			cleaned.Store(true)
		})
	}()
	for i := 0; !cleaned.Load(); i++ {
		if i == 10 {
			t.Fatal("the cache was not collected")
		}
		runtime.GC()
		time.Sleep(50 * time.Millisecond)
	}
	inner.wg.Wait() // the janitor stopped
}
