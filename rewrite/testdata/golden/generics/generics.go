package generics

import "sync"

func Fan[T any](in <-chan T, out chan<- T) {
	for v := range in {
		out <- v
	}
	close(out)
}

func Make[C ~chan E, E any](n int) C {
	return make(C, n)
}

func Lock[L sync.Locker](l L) {
	l.Lock()
	defer l.Unlock()
}

type Box[T any] struct {
	mu sync.Mutex
	v  T
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}
