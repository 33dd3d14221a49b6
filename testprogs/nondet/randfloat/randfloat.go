// Package randfloat samples requests for tracing with probability 0.3
// (rand.Float64() < 0.3). A sampled request flushes the tracer, and the
// flush closes the tracer's done channel without checking whether another
// flush already did: two sampled requests panic.
package randfloat

import (
	"math/rand"
	"sync"
)

// Tracer collects sampled spans.
type Tracer struct {
	mu    sync.Mutex
	spans []string
	done  chan struct{}
}

// NewTracer returns an empty tracer.
func NewTracer() *Tracer { return &Tracer{done: make(chan struct{})} }

// Handle serves one request, sampling it for tracing now and then.
func (t *Tracer) Handle(name string) {
	if rand.Float64() < 0.3 {
		t.mu.Lock()
		t.spans = append(t.spans, name)
		t.mu.Unlock()
		t.flush()
	}
}

func (t *Tracer) flush() {
	close(t.done) // BUG: a second sampled request closes it again
}
