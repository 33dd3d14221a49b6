// Package cs_phase01_bad is a Go port of SCTBench's CS.phase01_bad: two
// threads run the same body, which locks x a second time and never unlocks
// it. The first thread to get there leaves x locked, so the second thread
// and then main (in its join) block for ever: every schedule deadlocks.
package cs_phase01_bad

import "sync"

// prog is the shared state.
type prog struct {
	x, y sync.Mutex
}

// Run starts both threads and joins them.
func Run() {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			p.body()
		}()
	}
	wg.Wait()
}

func (p *prog) body() {
	p.x.Lock()
	p.x.Unlock()
	p.x.Lock() // never unlocked
	p.y.Lock()
	p.y.Unlock()
	p.y.Lock()
	p.y.Unlock()
}
