package runtime

import "testing"

// The cost of coverage (docs/performance.md): each scheduling point
// captures its caller's stack (runtime.Callers), looks its program
// counters up and counts the point; each access updates its object's last
// accesses (a benchmark's frames in _test.go count as user code).

// withCoverage turns coverage on for the running execution.
func withCoverage() {
	e := active.Load()
	e.race.cov = &coverage{}
	e.race.cov.begin()
}

func BenchmarkPointNoSwitchCoverage(b *testing.B) {
	runExec(sameFirst{}, func() {
		withCoverage()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Gosched()
		}
		b.StopTimer()
	})
}

func BenchmarkLoadControlledCoverage(b *testing.B) {
	x := 0
	runExec(sameFirst{}, func() {
		active.Load().set.maxSteps = 1 << 62 // not a livelock
		withCoverage()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Load(&x)
		}
		b.StopTimer()
	})
}
