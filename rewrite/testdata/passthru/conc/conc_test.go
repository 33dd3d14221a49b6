package conc

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
)

func TestSum(t *testing.T) {
	if got := Sum(10); got != 55 {
		t.Fatalf("Sum(10) = %d", got)
	}
}

func TestPipeline(t *testing.T) {
	if got := Pipeline([]int{1, 2, 3}); !reflect.DeepEqual(got, []int{2, 4, 6}) {
		t.Fatalf("got %v", got)
	}
}

func TestFirstError(t *testing.T) {
	if err := FirstError(context.Background()); err == nil || err.Error() != "boom" {
		t.Fatalf("got %v", err)
	}
}

func TestAtomics(t *testing.T) {
	a, b := Atomics(20)
	if a != 20 || b != 40 {
		t.Fatalf("got %d %d", a, b)
	}
}

func TestOnce(t *testing.T) {
	if got := Once(5); got != 1 {
		t.Fatalf("once ran %d times", got)
	}
}

func TestCond(t *testing.T) {
	if !Cond() {
		t.Fatal("not ready")
	}
}

func TestArgsInParent(t *testing.T) {
	if got := ArgsInParent(); got != 1 {
		t.Fatalf("argument evaluated late: %d", got)
	}
}

func TestMethodValue(t *testing.T) {
	if !MethodValue() {
		t.Fatal("method values of mutex methods broken")
	}
}

func TestTimers(t *testing.T) {
	if Timers() != 3 {
		t.Fatal("timers")
	}
}

func TestNonblocking(t *testing.T) {
	n, err := Nonblocking()
	if err != nil || n != 7 {
		t.Fatalf("got %d %v", n, err)
	}
}

func TestGeneric(t *testing.T) {
	if got := Generic("a", "b"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("got %v", got)
	}
}

func TestSubtests(t *testing.T) {
	var mu sync.Mutex
	seen := 0
	for i := 0; i < 3; i++ {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			mu.Lock()
			seen++
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		if seen != 3 {
			panic("subtests did not all run")
		}
	})
}

func TestCounterEmbedded(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.Inc() }()
	}
	wg.Wait()
	if c.n != 10 {
		t.Fatalf("n = %d", c.n)
	}
}

// TestExpectedFailure fails in both builds: equivalence covers failures.
func TestExpectedFailure(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1
	t.Errorf("deliberate failure, got %d", <-ch)
}

func TestEvalOrder(t *testing.T) {
	if got := EvalOrder(); got != 11 {
		t.Fatalf("order += bump() = %d, want 11 as gc computes it", got)
	}
}
