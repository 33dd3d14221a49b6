package runtime

import (
	"strings"
	"time"

	"github.com/gosct/gosct/replay"
)

// Timing-dependent bugs (docs/runtime.md, "Time"). A timer fired early, at
// a strategy's choice of strategies.Clock, fires while goroutines could
// run: the clock moves to its deadline and they have not taken the steps
// that would have brought it there. In Go that is a goroutine stalled,
// on a loaded machine (waiting for a CPU, descheduled, paused by the
// collector) while the timer's goroutine goes on: possible, and a true
// finding (the test is flaky), but not an interleaving bug. A bug whose
// schedule still fires a timer early once shrunk (minimize.go prefers
// fewer and smaller early firings, and tries first without any) is
// reported as timing-dependent, with what it needs in the user's terms:
// "needs the goroutine started at cache.go:412 to wait 1ms while the test
// slept at cache_test.go:1380". --timing strict (--timer-early 0) fires
// no timer early, and so reports only the bugs that need none.

// earlyFiring is one timer fired early in an execution.
type earlyFiring struct {
	// wait is how far the clock moved past the work done: the time the
	// goroutines that could run waited.
	wait time.Duration
	// held names the goroutines that could run; timer what the timer
	// woke (timingNeeds words them).
	held  []string
	timer string
}

// noteEarly records that t, which fires while runnable could run, the
// clock at now, fires early; what says what its firing ends (timerWhat).
// In a detailed run it returns the step the interleaving shows, else "".
// Lock held; the clock has not moved yet.
//
//go:norace
func (r *clockRecord) noteEarly(t *vtimer, now time.Duration, runnable []*goroutine, what string, detailed bool) string {
	f := earlyFiring{wait: max(t.when-now, 0), timer: what}
	var ids []string
	for _, g := range runnable {
		f.held = appendNew(f.held, g.who())
		ids = append(ids, "G"+itoa(g.id))
	}
	r.earlies = append(r.earlies, f)
	if !detailed {
		return ""
	}
	verb := " waits "
	if len(ids) > 1 {
		verb = " wait "
	}
	return t.describe() + " fires early: " + strings.Join(ids, ", ") + verb + roundWait(f.wait) + " (stalled)"
}

// who names g in a sentence: "the test goroutine", "the goroutine started
// at cache.go:412".
//
//go:norace
func (g *goroutine) who() string {
	switch site := g.creationSite(); {
	case g.id == 0:
		return "the test goroutine"
	case g.runT != nil && g.created == 0:
		return "the " + site
	default:
		return "the goroutine started at " + site
	}
}

// timerWhat says what t's firing ends, for timingNeeds: "the test slept
// at cache_test.go:1380". Positions of sleeps and receives are known in
// detailed runs (the re-run that writes a trace). Lock held.
//
//go:norace
func (c *clock) timerWhat(e *execution, t *vtimer) string {
	at := func(g *goroutine) string {
		if e.set.detailed && g.where != "" {
			return " at " + g.where
		}
		return ""
	}
	switch t.kind {
	case tkSleep:
		if t.g.id == 0 {
			return "the test slept" + at(t.g)
		}
		return t.g.who() + " slept" + at(t.g)
	case tkFunc:
		if t.deadline {
			return "the deadline of the context made at " + pcPos(t.pc) + " passed"
		}
		return "the AfterFunc made at " + pcPos(t.pc) + " fired"
	}
	what := "timer"
	if t.period > 0 {
		what = "ticker"
	}
	if cs := e.models.chans.get(chanKey((<-chan time.Time)(t.ch))); cs != nil {
		if w := cs.recvq.first(); w != nil {
			return w.g.who() + " waited for a " + what + at(w.g)
		}
	}
	if t.site != "" {
		return "the " + what + " made at " + t.site + " fired"
	}
	return "a " + what + " fired"
}

// timingNeeds is what the early firings of an execution need, in the
// user's terms; "" when it fired no timer early.
//
//go:norace
func timingNeeds(fs []earlyFiring) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, joinNames(f.held)+" to wait "+roundWait(f.wait)+" while "+f.timer)
	}
	if len(parts) == 0 {
		return ""
	}
	return "needs " + strings.Join(parts, "; then ")
}

// joinNames joins the names of goroutines, those started at a site as
// one group: "the test goroutine and the goroutines started at a.go:1 and
// b.go:2", three sites at most.
//
//go:norace
func joinNames(names []string) string {
	const one = "the goroutine started at "
	var groups, sites []string
	for _, n := range names {
		if s, ok := strings.CutPrefix(n, one); ok {
			sites = append(sites, s)
		} else {
			groups = append(groups, n)
		}
	}
	switch {
	case len(sites) == 1:
		groups = append(groups, one+sites[0])
	case len(sites) > 3:
		groups = append(groups, "the goroutines started at "+strings.Join(sites[:3], ", ")+" and "+itoa(len(sites)-3)+" more")
	case len(sites) > 1:
		groups = append(groups, "the goroutines started at "+andList(sites))
	}
	return andList(groups)
}

// andList joins "a", "b" and "c" as "a, b and c".
//
//go:norace
func andList(ss []string) string {
	if len(ss) <= 1 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

// appendNew appends s unless it is there.
//
//go:norace
func appendNew(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// roundWait renders a wait to three significant digits: "1ms",
// "999.8µs", "330ns".
//
//go:norace
func roundWait(d time.Duration) string { return replay.RoundDuration(d).String() }

// earlyWait is the time the early firings of fs made goroutines wait.
//
//go:norace
func earlyWait(fs []earlyFiring) time.Duration {
	var d time.Duration
	for _, f := range fs {
		d += f.wait
	}
	return d
}
