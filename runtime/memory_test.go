package runtime

import (
	"sync/atomic"
	"testing"
)

func TestMemoryPassThrough(t *testing.T) {
	x := 1
	Store(&x, Load(&x)+1)
	m := map[string]int{}
	Write(m)
	m["a"] = x
	if Then(Read(m), m["a"]) != 2 {
		t.Fatal("pass-through Load/Store/Read/Write")
	}
	var n int32
	if Then(Atomic(&n), atomic.AddInt32(&n, 5)) != 5 {
		t.Fatal("pass-through Atomic")
	}
}

// counterProgram: two goroutines increment a shared counter without a
// lock.
func counterProgram(t *testing.T) string {
	n := 0
	done := Chan(make(chan bool))
	Go(func() { Store(&n, Load(&n)+1); Send(done, true) })
	Store(&n, Load(&n)+1)
	Recv(done)
	return itoa(n)
}

// Without a lock an update can be lost.
func TestOutcomesCounterRace(t *testing.T) {
	skipRace(t)
	wantOutcomes(t, outcomes(t, counterProgram), "1,2")
}

// With access points off, accesses are not scheduling points: only the
// synchronization interleaves, and the lost update is out of reach (left
// to the race detector).
func TestAccessPointsOff(t *testing.T) {
	skipRace(t)
	seen := map[string]bool{}
	x := checkWith(t, "dfs", 1000, func(s *settings) { s.accessPoints = false }, func(t *testing.T) {
		seen[counterProgram(t)] = true
	})
	if !x.exhausted {
		t.Fatal("not exhausted")
	}
	wantOutcomes(t, keys(seen), "2")
}

// Map accesses through Read and Write interleave too.
func TestOutcomesMapReadWrite(t *testing.T) {
	skipRace(t)
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		m := map[string]int{}
		done := Chan(make(chan bool))
		Go(func() { Write(m); m["k"] = 1; Send(done, true) })
		v := Then(Read(m), m["k"])
		Recv(done)
		return itoa(v)
	}), "0,1")
}

// Atomic increments never lose an update; an atomic load may see either
// value.
func TestOutcomesAtomic(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var n atomic.Int32
		done := Chan(make(chan int32))
		Go(func() { Then(Atomic(&n), n.Add(1)); Send(done, Then(Atomic(&n), n.Load())) })
		Then(Atomic(&n), n.Add(1))
		seen := Recv(done)
		return itoa(int(seen)) + itoa(int(n.Load()))
	}), "12,22")
}

// A compare-and-swap loop without a lock: both increments land.
func TestAtomicCAS(t *testing.T) {
	check(t, "dfs", 10000, func(t *testing.T) {
		var n int64
		done := Chan(make(chan bool))
		inc := func() {
			for {
				old := Then(Atomic(&n), atomic.LoadInt64(&n))
				if Then(Atomic(&n), atomic.CompareAndSwapInt64(&n, old, old+1)) {
					return
				}
			}
		}
		Go(func() { inc(); Send(done, true) })
		inc()
		Recv(done)
		if n != 2 {
			t.Errorf("n = %d", n)
		}
	})
}

// BenchmarkLoadControlled is the cost of a Load in an execution: a
// scheduling point without a switch.
func BenchmarkLoadControlled(b *testing.B) {
	x := 0
	runExec(sameFirst{}, func() {
		active.Load().set.maxSteps = 1 << 62 // not a livelock
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Load(&x)
		}
		b.StopTimer()
	})
}

// BenchmarkLoadNoPoint is a Load in an execution with access points off:
// the hook's own overhead.
func BenchmarkLoadNoPoint(b *testing.B) {
	x := 0
	runExec(sameFirst{}, func() {
		active.Load().set.accessPoints = false
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Load(&x)
		}
		b.StopTimer()
	})
}

func BenchmarkLoadPassThrough(b *testing.B) {
	x := 0
	for i := 0; i < b.N; i++ {
		Load(&x)
	}
}

// skipRace skips tests of racy programs under -race, which reports their
// races (as it must: the runtime's hand-offs create no happens-before).
func skipRace(t *testing.T) {
	if raceEnabled {
		t.Skip("a racy program: -race reports it")
	}
}
