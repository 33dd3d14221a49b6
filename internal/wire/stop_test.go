package wire

import "testing"

func TestStoppingRules(t *testing.T) {
	l := Limits{Schedules: 10, Budget: 1000}
	for _, c := range []struct {
		p    Progress
		done bool
	}{
		{Progress{Schedules: 9, Elapsed: 999}, false},
		{Progress{Schedules: 10}, true},
		{Progress{Elapsed: 1000}, true},
		{Progress{Bugs: 1}, true},
		{Progress{Exhausted: true}, true},
		{Progress{Stopped: StopSkipped}, true},
	} {
		if got := l.Done(c.p); got != c.done {
			t.Errorf("Done(%+v) = %v, want %v", c.p, got, c.done)
		}
	}
	if (Limits{Schedules: 10, KeepGoing: true}).Done(Progress{Schedules: 3, Bugs: 2}) {
		t.Error("KeepGoing stopped at a bug")
	}
}

func TestOutcome(t *testing.T) {
	for e, want := range map[Event]string{
		{Event: "test", Schedules: 100}:                             OutcomeOK,
		{Event: "test", Schedules: 3, Exhausted: true}:              OutcomeOK,
		{Event: "test", Schedules: 5, Bugs: 1}:                      OutcomeBug,
		{Event: "test", Schedules: 5, Bugs: 1, Message: "too long"}: OutcomeBug,
		{Event: "test", Schedules: 1, Message: StopTooLong}:         OutcomeNotExplored,
		{Event: "test", Message: StopSkipped}:                       OutcomeNotExplored,
	} {
		if got := e.Outcome(); got != want {
			t.Errorf("%+v: outcome %q, want %q", e, got, want)
		}
	}
}
