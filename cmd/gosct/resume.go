package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/testbin"
	"github.com/gosct/gosct/internal/wire"
)

// A test binary that dies in one test function (a helper's log.Fatal,
// os.Exit, a fatal error of Go's such as concurrent map writes) takes the
// package's later tests with it. gosct reports the death as an error of
// the test it happened in and runs the tests after it in a fresh process
// of the binary (testRun.runResuming), so that one test's crash loses
// nothing else.

// death is where a binary died: in the test in, before the tests rest;
// skipped are earlier tests it went past without a result (they ran
// without scheduling control).
type death struct {
	in            string
	rest, skipped []string
}

// diedIn finds the test a binary died in from the order it runs its tests
// in and those it reported (done): the first unreported one after the
// last reported one, the binary running them one after the other. Not ok
// when the binary reported none (it may have died in TestMain), or went
// past all the unreported ones (it died after its last controlled test).
func diedIn(order []string, done map[string]bool) (d death, ok bool) {
	last := -1
	for i, t := range order {
		if done[t] {
			last = i
		}
	}
	if last < 0 {
		return death{}, false
	}
	for _, t := range order[:last] {
		if !done[t] {
			d.skipped = append(d.skipped, t)
		}
	}
	if last+1 == len(order) {
		return death{}, false
	}
	d.in, d.rest = order[last+1], order[last+2:]
	return d, true
}

// listTimeout bounds the listing of a binary's tests: its TestMain runs
// for it, and one that waits for a service must not hang the run.
const listTimeout = time.Minute

// binaryOrder returns tests in the order the binary runs them, which is
// its source order (files by name, then declarations), not the sorted
// order of rewrite.Package.Tests: -test.list prints them in that order.
// nil when the binary does not list them all, or shuffles them (-shuffle).
func (r *runner) binaryOrder(dir, bin string, tests []string) []string {
	if shuffled(r.gt.run) {
		return nil
	}
	ctx, cancel := context.WithTimeout(r.ctx, listTimeout)
	defer cancel()
	// With the user's test flags, as the run: a TestMain may need its
	// own flags to get to m.Run, which lists.
	args := append([]string{"-test.list=" + testsPattern(tests, "")}, r.gt.run...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = testbin.EnvWithout(os.Environ(), wire.EnvConfig)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	// A TestMain may fail after m.Run listed (a leak check, a cleanup):
	// what counts is that every name came out.
	_ = cmd.Run()
	want := map[string]bool{}
	for _, t := range tests {
		want[t] = true
	}
	// A TestMain may print lines of its own: only the names count.
	var order []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if t := sc.Text(); want[t] {
			order = append(order, t)
			delete(want, t)
		}
	}
	if len(want) > 0 {
		return nil
	}
	return order
}

// shuffled says whether the test binary's flags shuffle the order it runs
// its tests in, which -test.list does not show.
func shuffled(args []string) bool {
	shuffle := "off"
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "-test.shuffle="); ok {
			shuffle = v
		}
	}
	return shuffle != "off"
}
