// Package fixed is CS.stack_bad (see the parent directory) with the bug
// fixed: the popper pops only when the stack is not empty, instead of
// trusting a flag that is never reset.
package fixed

import (
	"errors"
	"sync"
	"testing"
)

// size is the stack's capacity and the number of iterations per thread.
const size = 10

var (
	errOverflow  = errors.New("stack overflow")
	errUnderflow = errors.New("stack underflow")
)

// stack is a fixed-size stack with no locking of its own.
type stack struct {
	top  int
	data [size]uint
}

func (s *stack) push(x uint) error {
	if s.top == size {
		return errOverflow
	}
	s.data[s.top] = x
	s.top++
	return nil
}

func (s *stack) pop() (uint, error) {
	if s.top == 0 {
		return 0, errUnderflow
	}
	s.top--
	return s.data[s.top], nil
}

// prog is the shared state.
type prog struct {
	m     sync.Mutex
	stack stack
}

// Run starts the pusher and the popper and joins them.
func Run(t testing.TB) {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < size; i++ {
			p.m.Lock()
			if err := p.stack.push(uint(i)); err != nil {
				t.Errorf("push %d: %v", i, err)
			}
			p.m.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < size; i++ {
			p.m.Lock()
			if p.stack.top > 0 {
				if _, err := p.stack.pop(); err != nil {
					t.Errorf("pop in iteration %d: %v", i, err)
				}
			}
			p.m.Unlock()
		}
	}()
	wg.Wait()
}
