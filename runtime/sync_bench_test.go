package runtime

import (
	"runtime"
	"sync"
	"testing"

	"github.com/gosct/gosct/strategies"
)

// syncProgram uses every sync primitive of the model once.
func syncProgram() {
	var mu sync.Mutex
	var rw sync.RWMutex
	var wg sync.WaitGroup
	var once sync.Once
	c := sync.NewCond(&mu)
	ready := false
	n := 0
	for i := 0; i < 2; i++ {
		WaitGroupGo(&wg, func() {
			Do(&once, func() {})
			RLock(&rw)
			RUnlock(&rw)
			Lock(&mu)
			Store(&n, Load(&n)+1)
			for !ready {
				CondWait(c)
			}
			Unlock(&mu)
		})
	}
	RWLock(&rw)
	RWUnlock(&rw)
	Lock(&mu)
	ready = true
	Broadcast(c)
	Unlock(&mu)
	Wait(&wg)
	if n != 2 {
		panic("lost update")
	}
}

// BenchmarkExecutionSync is one whole execution of syncProgram under the
// random strategy; heap-B/exec is the growth of the live heap per
// execution, which must stay near zero (nothing kept across executions).
func BenchmarkExecutionSync(b *testing.B) {
	s, _ := strategies.New("random", strategies.Options{Seed: 1})
	for i := 0; i < 100; i++ {
		runExec(s, syncProgram)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if e := runExec(s, syncProgram); e.bug != nil {
			b.Fatal(e.bug.report())
		}
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc))/float64(b.N), "heap-B/exec")
	b.ReportMetric(float64(runtime.NumGoroutine()), "goroutines")
}
