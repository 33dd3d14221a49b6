package strategies

import "testing"

func TestDefaultIsNonPreemptiveRoundRobin(t *testing.T) {
	for _, c := range []struct {
		p    Point
		want int
	}{
		{Point{Kind: Goroutine, Choices: []int{0, 1, 2}, Current: 1}, 1},              // the current one goes on
		{Point{Kind: Goroutine, Choices: []int{0, 2}, Current: 1}, 1},                 // it blocked: the next after it
		{Point{Kind: Goroutine, Choices: []int{0, 1}, Current: 3}, 0},                 // wrapping around
		{Point{Kind: Goroutine, Choices: []int{0, 1, 2}, Current: 1, Yield: true}, 2}, // a yield switches
		{Point{Kind: Case, Choices: []int{2, 5}, Current: 0}, 0},
	} {
		if got := Default(&c.p); got != c.want {
			t.Errorf("Default(%+v) = %d, want %d", c.p, got, c.want)
		}
		if Preempts(&c.p, Default(&c.p)) {
			t.Errorf("the default preempts at %+v", c.p)
		}
	}
	p := &Point{Kind: Goroutine, Choices: []int{0, 1}, Current: 0}
	if !Preempts(p, 1) || Preempts(&Point{Kind: Goroutine, Choices: []int{1}, Current: 0}, 0) {
		t.Error("Preempts: a switch from a goroutine that could go on is one; from one that blocked is not")
	}
}

func TestShrinkPlacesDeviationsByGoroutine(t *testing.T) {
	// At G0's second point, run G1; everything else by default.
	s := NewShrink([]Deviation{{Kind: Goroutine, G: 0, N: 1, Choice: 1}})
	s.NewExecution()
	p := &Point{Kind: Goroutine, Choices: []int{0, 1}, Current: 0}
	if got := s.Next(p); got != 0 {
		t.Errorf("G0's first point: %d, want the default 0", got)
	}
	if got := s.Next(p); got != 1 {
		t.Errorf("G0's second point: %d, want 1 (G1)", got)
	}
	if len(s.Taken) != 1 || s.Taken[0] != (Deviation{Kind: Goroutine, G: 0, N: 1, Choice: 1}) {
		t.Errorf("taken %v", s.Taken)
	}
	// A deviation whose goroutine is not enabled falls back to the default.
	s = NewShrink([]Deviation{{Kind: Goroutine, G: 0, N: 0, Choice: 7}})
	s.NewExecution()
	if got := s.Next(p); got != 0 || len(s.Taken) != 0 {
		t.Errorf("a deviation to a goroutine not enabled: %d, taken %v", got, s.Taken)
	}
}

func TestFollowScheduleFindsDeviations(t *testing.T) {
	rec := []Deviation{{Kind: Goroutine, Choice: 0}, {Kind: Goroutine, Choice: 1}, {Kind: Case, Choice: 3}}
	s := FollowSchedule(rec)
	s.NewExecution()
	if !s.Following() {
		t.Error("a recorded schedule is followed at every point")
	}
	g := &Point{Kind: Goroutine, Choices: []int{0, 1}, Current: 0}
	c := &Point{Kind: Case, Choices: []int{1, 3}, Current: 1}
	got := []int{s.Next(g), s.Next(g), s.Next(c)}
	if got[0] != 0 || got[1] != 1 || got[2] != 1 {
		t.Errorf("followed %v, want [0 1 1]", got)
	}
	want := []Deviation{{Kind: Goroutine, G: 0, N: 1, Choice: 1}, {Kind: Case, G: 1, N: 0, Choice: 3}}
	if len(s.Taken) != 2 || s.Taken[0] != want[0] || s.Taken[1] != want[1] {
		t.Errorf("deviations %v, want %v", s.Taken, want)
	}
}
