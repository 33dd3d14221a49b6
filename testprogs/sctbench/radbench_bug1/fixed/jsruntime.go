package fixed

import (
	"fmt"
	"sync"
)

// Runtime states (JSRTS_*).
const (
	stateDown = iota
	stateLaunching
	stateUp
	stateLanding
)

// GC kinds.
const (
	gcNormal = iota
	gcLastContext
)

// table stands for a heap-allocated engine table (the JSHashTable of script
// filenames). destroyed stands for free(): any later use panics, as the C
// use after free crashes.
type table struct {
	name      string
	entries   map[string]bool // name -> marked
	destroyed bool
}

func (t *table) use() *table {
	if t.destroyed {
		panic(fmt.Sprintf("use of destroyed %s", t.name))
	}
	return t
}

// jsThread is the per-OS-thread record a context is bound to.
type jsThread struct {
	id int
}

type jsContext struct {
	thread   *jsThread
	requests int
}

// jsRuntime is the skeleton of SpiderMonkey's JSRuntime: the GC lock and its
// conditions, the runtime state, GC bookkeeping, the context list and the
// script-filename table that the last context tears down. The number,
// string and atom state that the last context also frees is dropped, as
// SCTBench's description of the bug asks: the bug is the GC marking the
// script-filename table between its destruction and the clearing of its
// pointer.
type jsRuntime struct {
	gcLock      sync.Mutex
	gcDone      *sync.Cond
	requestDone *sync.Cond
	stateChange *sync.Cond

	state        int
	gcLevel      int
	gcRunning    bool
	gcThread     *jsThread
	requestCount int
	contexts     []*jsContext

	scriptFilenames *table // the pointer is set to nil after destruction
	scriptLock      sync.Mutex
}

func newRuntime() *jsRuntime {
	rt := &jsRuntime{state: stateDown}
	rt.gcDone = sync.NewCond(&rt.gcLock)
	rt.requestDone = sync.NewCond(&rt.gcLock)
	rt.stateChange = sync.NewCond(&rt.gcLock)
	return rt
}

// newContext links a context for th into the runtime; the first context
// brings the runtime up and creates the script-filename table.
func (rt *jsRuntime) newContext(th *jsThread) *jsContext {
	cx := &jsContext{thread: th}
	rt.gcLock.Lock()
	for rt.state == stateLaunching {
		rt.stateChange.Wait()
	}
	first := len(rt.contexts) == 0
	rt.contexts = append(rt.contexts, cx)
	if !first {
		rt.gcLock.Unlock()
		return cx
	}
	rt.state = stateLaunching
	rt.gcLock.Unlock()

	rt.scriptFilenames = &table{name: "script filename table", entries: map[string]bool{}}

	rt.gcLock.Lock()
	rt.state = stateUp
	rt.stateChange.Broadcast()
	rt.gcLock.Unlock()
	return cx
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

// registerScript is the filename registration that compiling "test.js"
// does, under the table's own lock.
func (rt *jsRuntime) registerScript(name string) {
	rt.scriptLock.Lock()
	rt.scriptFilenames.use().entries[name] = false
	rt.scriptLock.Unlock()
}

// gc is js_GC, reduced to its locking and the tables it touches.
func (rt *jsRuntime) gc(cx *jsContext, kind int) {
	// The engine checks the state without the lock first, and the bug
	// is that nothing checks it again under the lock. That unlocked check
	// is a data race of its own, harmless once the state is checked again
	// here: the fixed version makes only this check.
	rt.gcLock.Lock()
	if rt.state != stateUp && kind != gcLastContext {
		rt.gcLock.Unlock()
		return
	}
	if rt.gcLevel > 0 {
		// Another thread is collecting: wait for it and return.
		for rt.gcLevel > 0 {
			rt.gcDone.Wait()
		}
		rt.gcLock.Unlock()
		return
	}
	rt.gcLevel = 1
	rt.gcThread = cx.thread
	for rt.requestCount-cx.requests > 0 {
		rt.requestDone.Wait()
	}
	rt.gcRunning = true
	rt.gcLock.Unlock()

	// Mark: the pointer is read, then the table used.
	if t := rt.scriptFilenames; t != nil {
		for name := range t.use().entries {
			t.use().entries[name] = kind != gcLastContext
		}
	}
	// Sweep: unmarked filenames go.
	if t := rt.scriptFilenames; t != nil {
		for name, marked := range t.use().entries {
			if !marked {
				delete(t.entries, name)
			}
		}
	}

	rt.gcLock.Lock()
	rt.gcRunning = false
	rt.gcLevel = 0
	rt.gcThread = nil
	rt.gcDone.Broadcast()
	rt.gcLock.Unlock()
}

// destroyContext is js_DestroyContext: unlink; a context that is not the
// last runs a normal GC, the last one tears the runtime down.
func (rt *jsRuntime) destroyContext(cx *jsContext) {
	rt.gcLock.Lock()
	for rt.gcRunning && rt.gcThread != cx.thread {
		rt.gcDone.Wait()
	}
	for i, c := range rt.contexts {
		if c == cx {
			rt.contexts = append(rt.contexts[:i:i], rt.contexts[i+1:]...)
			break
		}
	}
	last := len(rt.contexts) == 0
	if last {
		rt.state = stateLanding
	}
	rt.gcLock.Unlock()

	if !last {
		rt.gc(cx, gcNormal)
		rt.gcLock.Lock()
		for rt.gcRunning {
			rt.gcDone.Wait()
		}
		rt.gcLock.Unlock()
		cx.thread = nil
		return
	}

	// The last context frees the runtime's number, string and atom state
	// inside a request, which waits for a running GC (the state itself is
	// dropped from the port).
	rt.beginRequest(cx)
	rt.endRequest(cx)

	rt.gc(cx, gcLastContext)

	// js_FinishRuntimeScriptState: destroy the table, then clear the pointer.
	if t := rt.scriptFilenames; t != nil && len(t.use().entries) == 0 {
		t.destroyed = true
		rt.scriptFilenames = nil
	}

	rt.gcLock.Lock()
	rt.state = stateDown
	rt.stateChange.Broadcast()
	rt.gcLock.Unlock()
	cx.thread = nil
}
