package runtime

import (
	"sync"
	"testing"
)

func TestGoidMatchesStack(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, want := goid(), slowGoid(); got != want {
				t.Errorf("goid() = %d, runtime.Stack says %d", got, want)
			}
		}()
	}
	wg.Wait()
	if haveGetg && goidOffset < 0 {
		t.Errorf("calibration failed on an architecture that supports it")
	}
}

func BenchmarkGoid(b *testing.B) {
	for i := 0; i < b.N; i++ {
		goid()
	}
}
