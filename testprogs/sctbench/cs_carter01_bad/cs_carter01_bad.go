// Package cs_carter01_bad is a Go port of SCTBench's CS.carter01_bad: two
// "classes" of threads share lock l through a readers-style counter guarded
// by m. The first thread of a class takes l while holding m, and the last
// one releases it; a thread of the other class can block on l while
// holding m, and the thread holding l then blocks on m: a deadlock.
package cs_carter01_bad

import "sync"

// prog is the shared state.
type prog struct {
	m, l sync.Mutex
	a, b int // threads of class A and B currently inside
}

// Run starts the class-A thread, the class-B thread and two threads with
// empty bodies (they are in the original and change the schedule space),
// then joins them all.
func Run() {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); p.classA() }()
	go func() { defer wg.Done(); p.classB() }()
	go func() { defer wg.Done() }()
	go func() { defer wg.Done() }()
	wg.Wait()
}

func (p *prog) classA() {
	p.m.Lock()
	p.a++
	if p.a == 1 {
		p.l.Lock()
	}
	p.m.Unlock()

	// The class-A work is empty.

	p.m.Lock()
	p.a--
	if p.a == 0 {
		p.l.Unlock()
	}
	p.m.Unlock()
}

func (p *prog) classB() {
	p.m.Lock()
	p.b++
	if p.b == 1 {
		p.l.Lock()
	}
	p.m.Unlock()

	p.m.Lock()
	p.b--
	if p.b == 0 {
		p.l.Unlock()
	}
	p.m.Unlock()
}
