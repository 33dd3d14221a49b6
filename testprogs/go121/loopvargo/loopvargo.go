// Package loopvargo models a service launcher that starts one registration
// goroutine per name inside a range loop and waits for each goroutine to
// start before moving on. Under Go 1.21 semantics (this module declares
// go 1.21) the loop variable is shared by all iterations, so a goroutine
// that reads it after the handshake can register the next iteration's name.
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
