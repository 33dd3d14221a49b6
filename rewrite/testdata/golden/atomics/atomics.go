package atomics

import (
	"sync"
	"sync/atomic"
)

type S struct {
	n   atomic.Int64
	v   atomic.Value
	b   atomic.Bool
	raw int32
	m   sync.Map
}

func Use(s *S) int64 {
	atomic.AddInt32(&s.raw, 1)
	x := atomic.LoadInt32(&s.raw)
	atomic.StoreInt32(&s.raw, x)
	s.n.Add(2)
	s.n.Store(5)
	s.b.Store(true)
	s.v.Store("x")
	s.m.Store("k", 1)
	if v, ok := s.m.Load("k"); ok {
		_ = v
	}
	s.m.Range(func(k, v any) bool { return true })
	for i := 0; i < 3; s.n.Store(int64(i)) {
		i++
	}
	defer s.n.Store(0)
	return s.n.Load()
}

func Deferred(s *S, n *int32) {
	defer atomic.AddInt32(n, -1)
	go s.n.Add(1)
	defer s.m.Delete("k")
}
