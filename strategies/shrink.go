package strategies

// Shrinking a buggy schedule (the runtime's minimizer drives it): a
// schedule is written as its deviations from a default schedule, and the
// minimizer looks for the smallest set of deviations that still ends in
// the same bug.
//
// The default is the non-preemptive round robin (the first child of
// Maple's order, mapleOrder): the current goroutine goes on while it can,
// and when it blocks, exits or yields, the next enabled goroutine in
// creation order after it takes over; a select takes its first ready case
// and a random draw its first value. Following the default never preempts,
// so a schedule of k deviations has at most k preemptions, and dropping
// deviations can only remove preemptions: shrinking converges towards the
// few switches the bug needs.
//
// A deviation is placed by the goroutine that reached the point and how
// many points of that kind it had reached before ("at G2's 5th scheduling
// point, run G1"), not by its index in the schedule: once other
// deviations are dropped the schedule is shorter, but G2's 5th point is
// still the same place in G2's code.

// Deviation is one choice that differs from the default: at the N-th point
// (0-based) of kind Kind reached by goroutine G, take Choice (a goroutine
// id, a select case index or a value).
type Deviation struct {
	Kind   Kind
	G, N   int
	Choice int
}

type devKey struct {
	kind Kind
	g, n int
}

// Default returns the index in p.Choices of the default choice.
func Default(p *Point) int {
	var buf [8]int
	return mapleOrder(p, buf[:0])[0]
}

// Preempts reports whether taking choice i at p is a preemption: a switch
// away from the current goroutine while it could go on, other than at a
// yield.
func Preempts(p *Point, i int) bool {
	return currentRuns(p) && p.Choices[i] != p.Current
}

// Shrink is the Strategy that runs a schedule written as deviations from
// the default. It runs one execution per NewExecution, for ever; Taken
// then lists the deviations the execution actually took (a deviation
// whose choice was not enabled where it was placed is not taken).
type Shrink struct {
	devs   map[devKey]int
	counts map[devKey]int // (kind, g) -> points reached so far
	// recorded, when set, is a whole schedule to follow instead (choices
	// by point, with their kinds): the first run of a shrink, which finds
	// the deviations of the schedule the strategy found.
	recorded []Deviation
	step     int
	// Taken are the deviations of the current execution.
	Taken []Deviation
}

// NewShrink returns the Shrink that runs the schedule of devs.
func NewShrink(devs []Deviation) *Shrink {
	s := &Shrink{devs: make(map[devKey]int, len(devs))}
	for _, d := range devs {
		s.devs[devKey{d.Kind, d.G, d.N}] = d.Choice
	}
	return s
}

// FollowSchedule returns the Shrink that takes the given choices in order
// (Kind and Choice of each point; G and N are ignored), falling back to
// the default where one is not possible; its Taken are then the
// deviations of that schedule.
func FollowSchedule(choices []Deviation) *Shrink {
	return &Shrink{recorded: choices}
}

// NewExecution starts the schedule again.
func (s *Shrink) NewExecution() bool {
	s.counts = map[devKey]int{}
	s.step = 0
	s.Taken = s.Taken[:0]
	return true
}

// Next takes the deviation placed at p, else the default.
func (s *Shrink) Next(p *Point) int {
	if s.counts == nil {
		s.NewExecution()
	}
	at := devKey{p.Kind, p.Current, 0}
	at.n = s.counts[at]
	s.counts[devKey{p.Kind, p.Current, 0}]++
	want, ok := -1, false
	if s.recorded != nil {
		if s.step < len(s.recorded) && s.recorded[s.step].Kind == p.Kind {
			want, ok = s.recorded[s.step].Choice, true
		}
		s.step++
	} else {
		want, ok = s.devs[at]
	}
	i := Default(p)
	if ok {
		if k := p.Index(want); k >= 0 {
			i = k
		}
	}
	if i != Default(p) {
		s.Taken = append(s.Taken, Deviation{Kind: p.Kind, G: p.Current, N: at.n, Choice: p.Choices[i]})
	}
	return i
}

// Following reports whether s follows a recorded schedule
// (FollowSchedule): it is then asked, and answers, at every point, as a
// replay is (Follower).
func (s *Shrink) Following() bool { return s.recorded != nil }
