// Package radbench_bug1 ports radbench.bug1 (Mozilla bug 515403, SpiderMonkey
// in Firefox 1.9.2) from SCTBench as a skeleton of the engine's context and
// GC code. Two threads share one runtime, each creates a context, runs a
// script in a request, meets the other at a barrier and destroys its
// context. The first to destroy its context runs a GC after checking,
// without the lock, that the runtime is up; if it is held right after that
// check while the other thread destroys the last context and tears the
// runtime down, its GC can mark the script-filename table between its
// destruction and the clearing of its pointer: a crash (a panic here).
// JavaScript parsing, atoms, the number and string state and the object
// heap are dropped; only the locking and the table the GC touches remain.
package radbench_bug1

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
