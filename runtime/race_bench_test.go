package runtime

import "testing"

// BenchmarkLoadControlledRaces is BenchmarkLoadControlled with the race
// detector on: the difference is the detector's cost per access.
func BenchmarkLoadControlledRaces(b *testing.B) {
	x := 0
	runExec(sameFirst{}, func() {
		e := active.Load()
		e.set.maxSteps = 1 << 62 // not a livelock
		e.set.races = racesReport
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Load(&x)
		}
		b.StopTimer()
	})
}

// BenchmarkLoadNoPointRaces is BenchmarkLoadNoPoint with the detector on
// (the sync-only mode): the detector's cost without a scheduling point.
func BenchmarkLoadNoPointRaces(b *testing.B) {
	x := 0
	runExec(sameFirst{}, func() {
		e := active.Load()
		e.set.accessPoints = false
		e.set.races = racesSync
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
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Store(&xs[i&1023], i)
		}
		b.StopTimer()
	})
}
