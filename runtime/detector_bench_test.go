package runtime

import (
	"sync"
	"testing"

	"github.com/gosct/gosct/strategies"
)

// benchLoads runs b.N Loads in one execution with the settings set
// makes: a scheduling point without a switch, plus the detector's work.
func benchLoads(b *testing.B, set func(*settings)) {
	x := 0
	runExec(sameFirst{}, func() {
		e := active.Load()
		// Not a livelock: never switch to the fair scheduler's checks.
		e.set.maxSteps, e.set.fairAfter = 1<<62, 1<<62
		set(&e.set)
		e.race.mode = e.set.races
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Load(&x)
		}
		b.StopTimer()
	})
}

// BenchmarkLoadControlledNoRaces and BenchmarkLoadControlledRaces: the
// difference is the detector's cost per access (report mode).
func BenchmarkLoadControlledNoRaces(b *testing.B) {
	benchLoads(b, func(s *settings) { s.races = racesOff })
}

func BenchmarkLoadControlledRaces(b *testing.B) {
	benchLoads(b, func(s *settings) { s.races = racesReport })
}

// BenchmarkLoadNoPointRaces is BenchmarkLoadNoPoint with the detector on
// (the sync-only mode): the detector's cost without a scheduling point.
func BenchmarkLoadNoPointRaces(b *testing.B) {
	x := 0
	runExec(sameFirst{}, func() {
		e := active.Load()
		e.set.accessPoints = false
		e.set.races = racesSync
		e.race.mode = racesSync
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Load(&x)
		}
		b.StopTimer()
	})
}

// BenchmarkStoreNoPointRacesManyVars writes 1024 distinct variables in
// turn: the cost when the shadow map does not stay in cache.
func BenchmarkStoreNoPointRacesManyVars(b *testing.B) {
	xs := make([]int, 1024)
	runExec(sameFirst{}, func() {
		e := active.Load()
		e.set.accessPoints = false
		e.set.races = racesSync
		e.race.mode = racesSync
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Store(&xs[i&1023], i)
		}
		b.StopTimer()
	})
}

// raceProgram is a race-free program with shared accesses, locks, a
// WaitGroup and channels, for the detector's benchmarks.
func raceProgram() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	xs := make([]int, 8)
	c := Chan(make(chan int, 2))
	for w := 0; w < 3; w++ {
		Add(&wg, 1)
		Go(func() {
			for i := range xs {
				Lock(&mu)
				Store(&xs[i], Load(&xs[i])+1)
				Unlock(&mu)
			}
			Send(c, 1)
			Done(&wg)
		})
	}
	for i := 0; i < 3; i++ {
		Recv(c)
	}
	Wait(&wg)
	for i := range xs {
		if Load(&xs[i]) != 3 {
			panic("lost update")
		}
	}
}

// BenchmarkExecutionRaces is one execution of raceProgram with the
// detector off (races=off) and on (races=report); the heap after the
// last execution shows the detector's state is dropped with each (run
// with -benchtime=100000x for the flat-memory figure).
func BenchmarkExecutionRaces(b *testing.B) {
	forRaceModes(b, "report", func(b *testing.B, mode raceMode) {
		s, _ := strategies.New("random", strategies.Options{Seed: 1})
		set := defaultSettings
		set.races = mode
		var heap1k uint64
		for i := 0; i < b.N; i++ {
			e := runWith(s, set, raceProgram)
			if e.bug != nil {
				b.Fatalf("bug in a race-free program: %s", e.bug.report())
			}
			if i == 999 {
				heap1k = liveHeap()
			}
		}
		if b.N >= 1000 {
			b.ReportMetric(float64(heap1k), "heap-after-1k-B")
		}
		b.ReportMetric(float64(liveHeap()), "heap-at-end-B")
	})
}

// BenchmarkExecution3x30Races is BenchmarkExecution3x30 with the detector
// on: what the detector costs a small program of channels and goroutines,
// where its per-execution state (clocks, shadow) weighs most.
func BenchmarkExecution3x30Races(b *testing.B) {
	s, _ := strategies.New("random", strategies.Options{Seed: 1})
	for i := 0; i < b.N; i++ {
		set := defaultSettings
		set.races = racesReport
		e := runWith(s, set, program3x30)
		if e.bug != nil {
			b.Fatal(e.bug.report())
		}
	}
}

// largeSlice is the size of BenchmarkRaceLargeSlice's byte slices.
const largeSlice = 64 << 10

// BenchmarkRaceLargeSlice copies between two 64 KiB byte slices (a read
// of one and a write of the other, as copy() and bigcache's queue do),
// with the detector off and on, in one execution whose goroutine starts
// a new epoch before each copy (an unlock), so that every word is
// checked and updated, not skipped as accessed in this epoch already.
// on/off is what the detector costs a large access.
func BenchmarkRaceLargeSlice(b *testing.B) {
	forRaceModes(b, "on", func(b *testing.B, mode raceMode) {
		src, dst := make([]byte, largeSlice), make([]byte, largeSlice)
		var mu sync.Mutex
		runExec(sameFirst{}, func() {
			e := active.Load()
			e.set.races = mode
			e.race.mode = mode
			shadowing = mode != racesOff
			b.SetBytes(largeSlice)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				Lock(&mu)
				Unlock(&mu)
				if i&1 == 0 {
					Copy(dst, src, nil)
				} else {
					Copy(src, dst, nil)
				}
			}
			b.StopTimer()
		})
	})
}

// BenchmarkRaceLargeSliceExec is one execution per operation that fills
// a new 64 KiB byte slice by copy() and reads it back: the cost of
// memory the detector has not shadowed yet, words made and dropped with
// the execution.
func BenchmarkRaceLargeSliceExec(b *testing.B) {
	forRaceModes(b, "on", func(b *testing.B, mode raceMode) {
		s, _ := strategies.New("random", strategies.Options{Seed: 1})
		set := defaultSettings
		set.races = mode
		src := make([]byte, largeSlice)
		b.SetBytes(largeSlice)
		for i := 0; i < b.N; i++ {
			runWith(s, set, func() {
				dst := make([]byte, largeSlice)
				Copy(dst, src, nil)
				Copy(src, dst, nil)
			})
		}
	})
}

// forRaceModes runs body as two sub-benchmarks, the detector off ("off")
// and on (named on).
func forRaceModes(b *testing.B, on string, body func(b *testing.B, mode raceMode)) {
	b.Run("off", func(b *testing.B) { body(b, racesOff) })
	b.Run(on, func(b *testing.B) { body(b, racesReport) })
}
