package runtime

import (
	"sync"
	"testing"
)

// Allocations of the hooks inside an execution, on the program's behalf:
// testing.AllocsPerRun and allocation-sensitive tests count them
// (docs/limitations.md, "Allocations"). Run with -benchmem or read
// allocs/op: each benchmark is one hook kind, at a scheduling point where
// the running goroutine goes on.

func benchHook(b *testing.B, op func()) {
	runExec(sameFirst{}, func() {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			op()
		}
	})
}

func BenchmarkAllocsPoint(b *testing.B) { benchHook(b, Gosched) }

func BenchmarkAllocsLoadStore(b *testing.B) {
	var x int
	p := &x
	benchHook(b, func() { Store(p, Load(p)+1) })
}

func BenchmarkAllocsLockUnlock(b *testing.B) {
	var mu sync.Mutex
	benchHook(b, func() { Lock(&mu); Unlock(&mu) })
}

func BenchmarkAllocsSelect(b *testing.B) {
	var ch chan int
	benchHook(b, func() {
		if ch == nil {
			ch = Chan(make(chan int, 1))
		}
		Send(ch, 1)
		c0 := OnRecv(ch)
		Select(false, c0)
	})
}

func BenchmarkAllocsMapAccess(b *testing.B) {
	m := map[int]int{1: 1}
	benchHook(b, func() {
		Read(m)
		_ = m[1]
		Write(m)
		m[1] = 2
	})
}

func BenchmarkAllocsAtomic(b *testing.B) {
	var n int64
	benchHook(b, func() { Atomic(&n) })
}

// TestAllocsPerRunCacheLookup: a test that checks testing.AllocsPerRun
// around a cache lookup (a lock, a map read, shared memory) sees the
// program's own allocations, none, inside an execution.
func TestAllocsPerRunCacheLookup(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the hooks with allocations of its own")
	}
	var mu sync.Mutex
	m := map[string]int{"k": 1}
	hits := 0
	check(t, "random", 3, func(t *testing.T) {
		n := testing.AllocsPerRun(100, func() {
			Lock(&mu)
			Read(m)
			v := m["k"]
			Store(&hits, Load(&hits)+v)
			Unlock(&mu)
		})
		if n != 0 {
			t.Errorf("AllocsPerRun = %v, want 0", n)
		}
	})
}
