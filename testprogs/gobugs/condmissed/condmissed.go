// Package condmissed models a loader that signals a sync.Cond when its
// data is ready, and a Wait that calls cond.Wait without first checking
// whether the data is already there. If the loader finishes before Wait
// starts waiting, the signal is lost and Wait blocks forever.
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
	l.cond.Wait()
	return l.data
}
