// Package locks has a lock-order cycle and a lock taken twice.
package locks

import "sync"

type account struct {
	mu      sync.Mutex
	balance int
}

type bank struct {
	a, b account
}

func (k *bank) ab() {
	k.a.mu.Lock() // line 16
	k.b.mu.Lock() // line 17
	k.a.balance--
	k.b.balance++
	k.b.mu.Unlock()
	k.a.mu.Unlock()
}

func (k *bank) ba() {
	k.b.mu.Lock() // line 25
	k.a.mu.Lock() // line 26
	k.b.balance--
	k.a.balance++
	k.a.mu.Unlock()
	k.b.mu.Unlock()
}

type store struct {
	mu   sync.Mutex
	data map[string]int
}

func (s *store) Len() int {
	s.mu.Lock() // line 39
	defer s.mu.Unlock()
	return len(s.data)
}

func (s *store) Put(k string, v int) {
	s.mu.Lock() // line 45
	defer s.mu.Unlock()
	if v < 0 {
		println("bad value; size", s.Len()) // takes s.mu again
		return
	}
	s.data[k] = v
}
