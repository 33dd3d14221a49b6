// Package wgnegative models a kubernetes-workqueue-style syncer: a key
// that is already being synced by another goroutine is skipped. The skip
// path calls wg.Done explicitly although a deferred wg.Done is already
// registered, so when two syncs of the same key overlap the WaitGroup
// counter goes negative and the program panics.
package wgnegative

import "sync"

// Syncer syncs keys at most once at a time.
type Syncer struct {
	mu       sync.Mutex
	inflight map[string]bool
	synced   []string
}

// NewSyncer returns an idle syncer.
func NewSyncer() *Syncer { return &Syncer{inflight: make(map[string]bool)} }

// Sync syncs key unless a sync of key is already running, then calls
// wg.Done.
func (s *Syncer) Sync(key string, wg *sync.WaitGroup) {
	defer wg.Done()
	s.mu.Lock()
	if s.inflight[key] {
		s.mu.Unlock()
		wg.Done() // the other sync will cover this request
		return
	}
	s.inflight[key] = true
	s.mu.Unlock()

	s.mu.Lock()
	s.synced = append(s.synced, key)
	delete(s.inflight, key)
	s.mu.Unlock()
}

// Synced returns the number of syncs performed.
func (s *Syncer) Synced() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.synced)
}
