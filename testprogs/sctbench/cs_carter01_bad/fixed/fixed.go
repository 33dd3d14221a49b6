// Package fixed is CS.carter01_bad (see the parent directory) with the bug
// fixed the way the "lightswitch" pattern does it: each class of threads
// counts its members under its own mutex, so a thread blocked on l while
// holding its class's mutex never blocks the other class from releasing l.
package fixed

import (
	"sync"
	"testing"
)

type prog struct {
	mA, mB sync.Mutex
	l      sync.Mutex
	a, b   int
	inside int // threads holding the shared resource l; guarded by l
}

// Run starts the class-A thread, the class-B thread and two empty threads,
// then joins them all.
func Run(t testing.TB) {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); p.enter(&p.mA, &p.a, t) }()
	go func() { defer wg.Done(); p.enter(&p.mB, &p.b, t) }()
	go func() { defer wg.Done() }()
	go func() { defer wg.Done() }()
	wg.Wait()
	if p.inside != 0 {
		t.Errorf("%d threads still hold l", p.inside)
	}
}

// enter runs one thread of the class counted by n under m.
func (p *prog) enter(m *sync.Mutex, n *int, t testing.TB) {
	m.Lock()
	*n++
	if *n == 1 {
		p.l.Lock()
		p.inside++
		if p.inside != 1 {
			t.Errorf("%d classes hold l at once", p.inside)
		}
	}
	m.Unlock()

	m.Lock()
	*n--
	if *n == 0 {
		p.inside--
		p.l.Unlock()
	}
	m.Unlock()
}
