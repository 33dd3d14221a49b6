package wire

import "testing"

// samples are n samples' fresh counts, found[i] at sample i (others 0).
func samples(n int, found map[int]int) []int {
	s := make([]int, n)
	for i, f := range found {
		s[i] = f
	}
	return s
}

// sample is the schedule of sample i.
func sample(i int) int { return i*SamplePeriod + 1 }

// TestSaturatedAt: the rule stops a test once the schedules since its last
// discovering sample are at least SaturationQuiet and SaturationFactor
// times those before it; a test still discovering, or one whose stop would
// come past its limit, is not stopped.
func TestSaturatedAt(t *testing.T) {
	const limit = 100_000
	lots := limit / SamplePeriod
	// Discoveries on every sample until one past the quiet period.
	lastLate := SaturationQuiet/SamplePeriod + 1
	late := sample(lastLate)
	upTo := func(last int) map[int]int {
		m := map[int]int{}
		for i := 0; i <= last; i++ {
			m[i] = 1
		}
		return m
	}
	for _, c := range []struct {
		name  string
		fresh []int
		limit int
		want  int
	}{
		{"the first sample only discovers", samples(lots, map[int]int{0: 5}), limit, 1 + SaturationQuiet},
		{"no sample discovers", samples(lots, nil), limit, SaturationQuiet},
		{"a discovery at sample 3 moves the stop",
			samples(lots, map[int]int{0: 5, 3: 1}), limit, sample(3) + SaturationQuiet},
		{"a late discovery: the factor decides",
			samples(lots, upTo(lastLate)), limit, late + SaturationFactor*late},
		{"every sample discovers", samples(lots, upTo(lots-1)), limit, 0},
		{"the stop would come at the limit", samples(lots, map[int]int{0: 5}), 1 + SaturationQuiet, 0},
		{"the samples end: no discovery after them", samples(2, map[int]int{0: 1, 1: 1}), limit, sample(1) + SaturationQuiet},
	} {
		if got := SaturatedAt(c.fresh, c.limit); got != c.want {
			t.Errorf("%s: SaturatedAt = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestSaturationOnlySamples: the rule looks at the samples alone, and a
// fresh count of 0 is no discovery.
func TestSaturationOnlySamples(t *testing.T) {
	var s Saturation
	s.Observe(1, 3)
	s.Observe(1+SamplePeriod, 0)
	if s.Last != 1 {
		t.Errorf("last discovery at %d after a sample that found nothing, want 1", s.Last)
	}
	if s.Saturated(SaturationQuiet) {
		t.Errorf("saturated after %d schedules, %d of them quiet", SaturationQuiet, SaturationQuiet-1)
	}
	if !s.Saturated(1 + SaturationQuiet) {
		t.Errorf("not saturated after %d quiet schedules", SaturationQuiet)
	}
	for n := 1; n <= 3*SamplePeriod; n++ {
		if got, want := Sampled(n), n == 1 || n == 1+SamplePeriod || n == 1+2*SamplePeriod; got != want {
			t.Errorf("Sampled(%d) = %v, want %v", n, got, want)
		}
	}
}

// TestDoneSaturated: a saturated exploration is done.
func TestDoneSaturated(t *testing.T) {
	l := Limits{Schedules: 1000}
	if !l.Done(Progress{Schedules: 400, Saturated: true}) {
		t.Error("not done when saturated")
	}
	if l.Done(Progress{Schedules: 400}) {
		t.Error("done before the limit, not saturated")
	}
}
