// Package radbench_bug2 ports radbench.bug2 (Mozilla bug 476934, SpiderMonkey
// 1.7) from SCTBench as a skeleton of the engine's context-thread and GC
// code. Main runs a GC that walks the runtime's context list without the
// lock and, for each context bound to another thread, checks the context's
// thread pointer and then reads it again to clear that thread's free lists.
// A worker meanwhile creates a context and binds and unbinds it
// (JS_SetContextThread, JS_ClearContextThread) without the GC lock; if the
// unbinding lands between the check and the second read, the GC dereferences
// nil: a crash. It needs 3 preemptions. SCTBench cut the harness from 3
// worker threads to 1.
package radbench_bug2

import "sync"

// numWorkers is the harness's THREADS after SCTBench's reduction.
const numWorkers = 1

// jsThread is the per-OS-thread record: its GC free lists and caches.
type jsThread struct {
	id        int
	freeLists []int
	cache     []int
	contexts  []*jsContext // the contexts bound to this thread
}

type jsContext struct {
	thread   *jsThread
	requests int
}

// jsRuntime is the skeleton of JSRuntime: the GC lock and its conditions,
// the GC bookkeeping and the context list.
type jsRuntime struct {
	gcLock       sync.Mutex
	gcDone       *sync.Cond
	requestDone  *sync.Cond
	gcLevel      int
	gcThread     *jsThread
	gcRunning    bool
	requestCount int
	contexts     []*jsContext
}

func newRuntime() *jsRuntime {
	rt := &jsRuntime{}
	rt.gcDone = sync.NewCond(&rt.gcLock)
	rt.requestDone = sync.NewCond(&rt.gcLock)
	return rt
}

// newContext is js_NewContext: bind to th, then link into the runtime's list
// under the GC lock.
func (rt *jsRuntime) newContext(th *jsThread) *jsContext {
	cx := &jsContext{}
	setThread(cx, th)
	rt.gcLock.Lock()
	rt.contexts = append(rt.contexts, cx)
	rt.gcLock.Unlock()
	return cx
}

// setThread is js_SetContextThread: (re)link cx into th's context list and
// bind it. No GC lock is taken.
func setThread(cx *jsContext, th *jsThread) {
	unlink(th, cx)
	th.contexts = append(th.contexts, cx)
	cx.thread = th
}

// clearThread is js_ClearContextThread: unlink and unbind. No GC lock is
// taken.
func clearThread(cx *jsContext) {
	unlink(cx.thread, cx)
	cx.thread = nil
}

func unlink(th *jsThread, cx *jsContext) {
	for i, c := range th.contexts {
		if c == cx {
			th.contexts = append(th.contexts[:i:i], th.contexts[i+1:]...)
			return
		}
	}
}

func (rt *jsRuntime) beginRequest(cx *jsContext) {
	rt.gcLock.Lock()
	for rt.gcLevel > 0 && rt.gcThread != cx.thread {
		rt.gcDone.Wait()
	}
	rt.requestCount++
	cx.requests++
	rt.gcLock.Unlock()
}

func (rt *jsRuntime) endRequest(cx *jsContext) {
	rt.gcLock.Lock()
	rt.requestCount--
	cx.requests--
	if rt.requestCount == 0 {
		rt.requestDone.Broadcast()
	}
	rt.gcLock.Unlock()
}

// gc is js_GC reduced to its locking and the walk over the contexts.
func (rt *jsRuntime) gc(cx *jsContext) {
	rt.gcLock.Lock()
	if rt.gcLevel > 0 && rt.gcThread != cx.thread {
		for rt.gcLevel > 0 {
			rt.gcDone.Wait()
		}
		rt.gcLock.Unlock()
		return
	}
	rt.gcLevel = 1
	rt.gcThread = cx.thread
	// Discount the caller's own requests.
	for rt.requestCount-cx.requests > 0 {
		rt.requestDone.Wait()
	}
	rt.gcRunning = true
	rt.gcLock.Unlock()

	// Clear our own thread's free lists.
	cx.thread.freeLists = nil

	// Clear the other threads' free lists and caches, walking the contexts
	// without the lock. The thread pointer is checked, then read again.
	for i := 0; i < len(rt.contexts); i++ {
		acx := rt.contexts[i]
		if acx.thread == nil || acx.thread == cx.thread {
			continue
		}
		acx.thread.freeLists = nil
		acx.thread.cache = nil
	}

	// Mark and sweep: nothing left to model.

	rt.gcLock.Lock()
	rt.gcRunning = false
	rt.gcLevel = 0
	rt.gcThread = nil
	rt.gcDone.Broadcast()
	rt.gcLock.Unlock()
}

// Run is the harness: main creates the runtime and its first context,
// starts the workers, runs one GC inside a request and joins the workers.
func Run() {
	rt := newRuntime()
	mainThread := &jsThread{id: 0}
	cx := rt.newContext(mainThread)

	var wg sync.WaitGroup
	wg.Add(numWorkers)
	for i := 0; i < numWorkers; i++ {
		th := &jsThread{id: i + 1, freeLists: []int{1}, cache: []int{1}}
		go func() {
			defer wg.Done()
			worker(rt, th)
		}()
	}

	rt.beginRequest(cx)
	rt.gc(cx)
	rt.endRequest(cx)
	wg.Wait()
}

func worker(rt *jsRuntime, th *jsThread) {
	cx := rt.newContext(th)
	setThread(cx, th)
	clearThread(cx)
}
