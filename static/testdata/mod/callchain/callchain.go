// Package callchain fails in a helper reached through a chain of calls:
// the failing branch reads only its parameters, which carry what the
// consumer read from shared state.
package callchain

import (
	"sync"
	"testing"
)

type state struct {
	mu    sync.Mutex
	ready bool
	value int
}

func (s *state) publish(v int) {
	s.mu.Lock()
	s.ready = true // line 19: before the value, the bug
	s.mu.Unlock()
	s.mu.Lock()
	s.value = v // line 22
	s.mu.Unlock()
}

func (s *state) snapshot() (bool, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ready, s.value
}

func consume(t testing.TB, s *state) {
	r, v := s.snapshot()
	verify(t, r, v)
}

func verify(t testing.TB, ready bool, v int) {
	check(t, ready, v)
}

func check(t testing.TB, ready bool, v int) {
	if ready && v == 0 {
		t.Errorf("ready but no value") // line 43
	}
}
