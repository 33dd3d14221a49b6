// Package wgnegative is the fixed version: the deferred wg.Done is the
// only one, on every path.
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
		return // the other sync covers this request
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
