// Package condmissed is the fixed version: Wait waits on the condition in
// a loop that checks the predicate first.
package condmissed

import "sync"

// Loader loads data in the background.
type Loader struct {
	mu     sync.Mutex
	cond   *sync.Cond
	loaded bool
	data   []string
}

// Start begins loading in a new goroutine.
func Start(src []string) *Loader {
	l := &Loader{}
	l.cond = sync.NewCond(&l.mu)
	go l.load(src)
	return l
}

func (l *Loader) load(src []string) {
	data := append([]string(nil), src...)
	l.mu.Lock()
	l.data = data
	l.loaded = true
	l.cond.Signal()
	l.mu.Unlock()
}

// Wait blocks until the data is loaded and returns it.
func (l *Loader) Wait() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.loaded {
		l.cond.Wait()
	}
	return l.data
}
