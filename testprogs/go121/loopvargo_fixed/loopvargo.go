// Package loopvargo is the fixed version: each goroutine gets its own copy
// of the loop variable, as Go 1.22 would give it.
package loopvargo

import (
	"crypto/sha256"
	"sort"
	"sync"
)

// Registry records registered names.
type Registry struct {
	mu    sync.Mutex
	names []string
}

// Register records name.
func (r *Registry) Register(name string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]string(nil), r.names...)
	sort.Strings(out)
	return out
}

// Fingerprint is the per-service preparation the launcher does after
// starting each registration.
func Fingerprint(name string) [32]byte { return sha256.Sum256([]byte(name)) }

// StartAll registers every name concurrently and returns their
// fingerprints once all registrations are done.
func StartAll(r *Registry, names []string) map[string][32]byte {
	var wg sync.WaitGroup
	prints := make(map[string][32]byte, len(names))
	started := make(chan struct{})
	for _, name := range names {
		name := name
		wg.Add(1)
		go func() {
			defer wg.Done()
			started <- struct{}{} // the launcher waits until the service is up
			r.Register(name)
		}()
		<-started
		prints[name] = Fingerprint(name)
	}
	wg.Wait()
	return prints
}
