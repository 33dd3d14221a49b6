package wire

// The saturation rule of a default run (Config.Saturate): a test whose
// exploration has stopped reaching new pairs of conflicting operations
// gets fewer schedules than one still discovering. Every SamplePeriod-th
// schedule records its coverage (the scheduling points it reached and the
// ordered pairs of conflicting points whose operations met: runtime's
// coverage, what --coverage reports), which costs five to ten times a
// scheduling point; the others run as usual. A sample discovers when it
// reaches a point or an ordered pair no earlier sample reached, or a set
// of ordered pairs no earlier sample had (the same pairs in a new
// combination: a test whose goroutines meet in few places still
// discovers while their orders combine anew). The test stops, saturated,
// once the schedules since the last discovering sample are at least
// SaturationQuiet and at least SaturationFactor times the schedules that
// came before it: a test that discovered until its 300th schedule runs to
// its 900th at least, one that stopped discovering at its 10th to its
// SaturationQuiet+10th.
//
// A saturated test is not proved, nor explored to its limits: it reports
// the schedules it ran and where its coverage saturated.

const (
	// SamplePeriod: every SamplePeriod-th schedule is a sample (the
	// first, then 1+SamplePeriod...). Prime to the portfolio's cycles of
	// 10 and 11 executions, so that the samples go round its members.
	SamplePeriod = 7
	// SaturationQuiet is the fewest schedules without a discovery after
	// which a test may stop.
	SaturationQuiet = 300
	// SaturationFactor is how many times the schedules up to the last
	// discovery the schedules after it must be, at least.
	SaturationFactor = 2
)

// Sampled reports whether schedule n (1-based) records its coverage for
// the saturation rule.
func Sampled(n int) bool { return n%SamplePeriod == 1 }

// Saturation is the state of the saturation rule over a test function's
// schedules.
type Saturation struct {
	// Last is the schedule of the last sample that discovered (0:
	// none yet).
	Last int
}

// Observe takes sample schedule n's fresh coverage: the points and pairs
// it reached first, plus one for a new set of pairs.
func (s *Saturation) Observe(n, fresh int) {
	if fresh > 0 {
		s.Last = n
	}
}

// Saturated reports whether the rule stops a test after n schedules.
func (s Saturation) Saturated(n int) bool {
	quiet := n - s.Last
	return quiet >= SaturationQuiet && quiet >= SaturationFactor*s.Last
}

// SaturatedAt is the schedule after which the rule stops a test whose
// samples, in order, found fresh[i] new items (fresh[i] is sample i's:
// schedule i*SamplePeriod+1), in a run of at most limit schedules; 0 when
// it does not stop it before limit.
func SaturatedAt(fresh []int, limit int) int {
	var s Saturation
	for n := 1; n < limit; n++ {
		if Sampled(n) {
			if i := n / SamplePeriod; i < len(fresh) {
				s.Observe(n, fresh[i])
			}
		}
		if s.Saturated(n) {
			return n
		}
	}
	return 0
}
