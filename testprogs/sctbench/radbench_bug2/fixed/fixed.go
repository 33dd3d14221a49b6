// Package fixed is radbench.bug2 (see the parent directory) with the
// worker binding and unbinding its context under the GC lock, and the GC
// walking the contexts under it too, reading each thread pointer once. The
// bug is a data race (the walk's check and use of a thread pointer the
// worker changes without the lock): reading the pointer once stops the
// crash but not the race, which only the lock ends. It must pass in every
// schedule, with no race.
package fixed

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

	// Clear our own thread's free lists.
	cx.thread.freeLists = nil

	// Clear the other threads' free lists and caches, walking the contexts
	// under the lock, which the worker takes to bind or unbind its
	// context. The thread pointer is read once.
	for i := 0; i < len(rt.contexts); i++ {
		acx := rt.contexts[i]
		th := acx.thread
		if th == nil || th == cx.thread {
			continue
		}
		th.freeLists = nil
		th.cache = nil
	}

	// Mark and sweep: nothing left to model.

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
	rt.gcLock.Lock()
	setThread(cx, th)
	rt.gcLock.Unlock()
	rt.gcLock.Lock()
	clearThread(cx)
	rt.gcLock.Unlock()
}
