package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// progress draws one status line on a terminal while a test binary runs:
// test, strategy, schedules done, schedules/s, bugs. It learns the numbers
// from the results file: "test" and "bug" events, and the "progress"
// events (test, schedules so far) that a runtime may append periodically.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	strategy string
	drawn    bool

	pkg       string
	tests     int // test functions of the package being run
	testsDone int
	test      string
	testStart time.Time
	done      int // schedules of finished tests
	current   int // schedules of the test in progress
	bugs      int
	start     time.Time
	// runTests are the test functions of the whole run, runDone those
	// finished; runBudget is --run-budget, which bounds the ETA.
	runTests, runDone int
	runBudget         time.Duration
	// saturated counts the tests the saturation rule stopped
	// (wire.Event.Saturated): done before their schedule limit.
	saturated int
}

// isTerminal reports whether f is a character device, which is all the
// progress line needs to know.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer, strategy string) *progress {
	return &progress{w: w, strategy: strategy, start: time.Now()}
}

// plan sets what the whole run will explore, for done/total and the ETA.
func (p *progress) plan(tests int, budget time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.runTests, p.runBudget = tests, budget
}

// eta estimates the time the run has left: the mean time of the tests
// done so far for each test left, no more than the run budget left.
func (p *progress) eta(elapsed time.Duration) (time.Duration, bool) {
	left := p.runTests - p.runDone
	if p.runDone == 0 || left <= 0 {
		return 0, false
	}
	eta := elapsed / time.Duration(p.runDone) * time.Duration(left)
	if p.runBudget > 0 {
		eta = min(eta, max(p.runBudget-elapsed, 0))
	}
	return eta.Round(time.Second), true
}

// begin starts the run of a package's binary over tests test functions.
func (p *progress) begin(pkg string, tests int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pkg, p.tests, p.testsDone, p.test, p.current = pkg, tests, 0, "", 0
}

// observe updates the counters from new events.
func (p *progress) observe(evs []wire.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range evs {
		switch e.Event {
		case "progress":
			if e.Test != p.test {
				p.test, p.testStart = e.Test, time.Now()
			}
			p.current = e.Schedules
			if e.Strategy != "" {
				p.strategy = e.Strategy
			}
		case "bug":
			p.bugs++
			if e.Test != "" && e.Test != p.test {
				p.test, p.testStart = e.Test, time.Now()
			}
			if e.Schedule > p.current {
				p.current = e.Schedule
			}
		case "test":
			p.testsDone++
			p.runDone++
			p.done += e.Schedules
			if e.Saturated > 0 && e.Bugs == 0 {
				p.saturated++
			}
			p.current = 0
			p.test = ""
		}
	}
}

// draw redraws the line.
func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.done + p.current
	el := time.Since(p.start).Seconds()
	what := p.pkg
	if p.test != "" {
		what += " " + p.test
	}
	line := fmt.Sprintf("%s  [%d/%d tests]  %s  %d schedules  %s/s  %d bug%s",
		what, p.testsDone, p.tests, p.strategy, n, rate(n, el), p.bugs, plural(p.bugs))
	if p.runTests > 0 {
		line += fmt.Sprintf("  run: %d/%d tests", p.runDone, p.runTests)
		if p.saturated > 0 {
			line += fmt.Sprintf(" (%d saturated)", p.saturated)
		}
		if eta, ok := p.eta(time.Since(p.start)); ok {
			line += ", ETA " + eta.String()
		}
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.drawn = true
}

// clear erases the line so that other output starts on a clean line.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
