// Package fixed is radbench.bug1 (see the parent directory) with the GC
// re-checking the runtime state under the GC lock, so a GC that was held
// after its unlocked check backs off once the last context has started
// tearing the runtime down. It must pass in every schedule.
package fixed

import "sync"

// numThreads is MY_THREAD_COUNT of the harness.
const numThreads = 2

// barrier is a pthread barrier for n threads.
type barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
	count int
	gen   int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	g := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.cond.Broadcast()
	} else {
		for g == b.gen {
			b.cond.Wait()
		}
	}
	b.mu.Unlock()
}

// Run starts the JS threads on a shared runtime and joins them.
func Run() {
	rt := newRuntime()
	b := newBarrier(numThreads)
	var wg sync.WaitGroup
	wg.Add(numThreads)
	for i := 0; i < numThreads; i++ {
		th := &jsThread{id: i + 1}
		go func() {
			defer wg.Done()
			jsThreadMain(rt, th, b)
		}()
	}
	wg.Wait()
}

func jsThreadMain(rt *jsRuntime, th *jsThread, b *barrier) {
	cx := rt.newContext(th)

	// Create the global object and standard classes.
	rt.beginRequest(cx)
	rt.endRequest(cx)

	// Evaluate a one-line script named "test.js".
	rt.beginRequest(cx)
	rt.registerScript("test.js")
	rt.endRequest(cx)

	b.wait()
	rt.destroyContext(cx)
}
