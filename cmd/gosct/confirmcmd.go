package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gosct/gosct/confirm"
	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/spf13/pflag"
)

const confirmUsage = `usage: gosct confirm [flags] TRACE [-- go build flags]

Shows the trace's bug under plain go test. From the bug's minimized
schedule it finds where the schedule departs from what Go does unprompted
(a preemption, a timer fired early, a goroutine held back), inserts at
exactly those places a delay (a sleep, a handshake with the goroutine that
ran instead, or a runtime.Gosched loop) in a copy of the package (an
overlay: your files are not written), runs the test with go test --runs
times (-race for a race), and counts the runs that fail the same way: the
same kind of bug at the same place, never just a failed run. It prints
the delays as a patch you can apply to see the bug yourself.

A deadlock shows as go test's -timeout (--confirm-timeout; by default
three times what the test as it is takes under go test, at least 3s,
measured in one run first; go test's default 10m when the schedule waits
for a timer and the runs timed out); a leak through a
check inserted at the start of the test (after it returns, the goroutines
gosct saw leak must leave within a second). Livelocks are not checked.

Exit status 0 when confirmed, 1 when not, 2 on errors.

Flags:
`

type confirmOptions struct {
	runs     int
	timeout  time.Duration
	sleep    time.Duration
	parallel int
	how      string
	json     bool
	trace    string
	gotest   goTestFlags
}

func parseConfirm(args []string) (*confirmOptions, *pflag.FlagSet, error) {
	o := &confirmOptions{}
	fs := pflag.NewFlagSet("gosct confirm", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	addConfirmFlags(fs, o)
	fs.BoolVar(&o.json, "json", false, "one JSON object on stdout")
	if err := parseFlags(fs, args); err != nil {
		return nil, fs, err
	}
	pos := fs.Args()
	if dash := fs.ArgsLenAtDash(); dash >= 0 {
		gt, err := parseGoTestFlags(pos[dash:])
		if err != nil {
			return nil, fs, err
		}
		o.gotest = *gt
		pos = pos[:dash]
	}
	switch {
	case len(pos) == 0:
		return nil, fs, usagef("no trace given (gosct confirm TRACE)")
	case len(pos) > 1:
		return nil, fs, usagef("one trace at a time, got %d arguments", len(pos))
	}
	if err := o.check(); err != nil {
		return nil, fs, err
	}
	o.trace = pos[0]
	return o, fs, nil
}

// addConfirmFlags declares the flags gosct confirm and gosct test
// --confirm share.
func addConfirmFlags(fs *pflag.FlagSet, o *confirmOptions) {
	fs.IntVar(&o.runs, "runs", 20, "confirm: how many times go test runs the test per way tried")
	fs.DurationVar(&o.timeout, "confirm-timeout", 0, "confirm: go test -timeout of one run (a deadlock shows as its timeout); 0: three times what the test takes under go test as it is, at least 3s")
	fs.DurationVar(&o.sleep, "delay", 20*time.Millisecond, "confirm: how long a sleeping delay lasts")
	fs.IntVar(&o.parallel, "confirm-parallel", 4, "confirm: runs of go test at once")
	fs.StringVar(&o.how, "how", "sleep,targeted,handshake,yield", "confirm: the ways of holding a goroutine to try, in order (a plain sleep, a sleep of that goroutine only, a handshake, a Gosched loop)")
}

func (o *confirmOptions) check() error {
	switch {
	case o.runs < 1:
		return usagef("--runs must be at least 1, not %d", o.runs)
	case o.timeout < 0:
		return usagef("--confirm-timeout must not be negative")
	case o.sleep <= 0:
		return usagef("--delay must be positive")
	case o.parallel < 1:
		return usagef("--confirm-parallel must be at least 1")
	}
	_, err := o.hows()
	return err
}

func (o *confirmOptions) hows() ([]confirm.How, error) {
	var hs []confirm.How
	for _, h := range strings.Split(o.how, ",") {
		switch confirm.How(strings.TrimSpace(h)) {
		case confirm.Sleep, confirm.Targeted, confirm.Handshake, confirm.Yield:
			hs = append(hs, confirm.How(strings.TrimSpace(h)))
		default:
			return nil, usagef("--how: unknown way %q (sleep, targeted, handshake, yield)", h)
		}
	}
	return hs, nil
}

func cmdConfirm(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, fs, err := parseConfirm(args)
	if errors.Is(err, errHelp) {
		return printUsage(stdout, confirmUsage, fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct confirm: %v\n", err)
		return exitError
	}
	path, t, err := openTrace(o.trace)
	if err != nil {
		fmt.Fprintf(stderr, "gosct confirm: %v\n", err)
		return exitError
	}
	cwd := workDir()
	lay, err := traceLayout(t, path, cwd)
	if err != nil {
		fmt.Fprintf(stderr, "gosct confirm: %v\n", err)
		return exitError
	}
	progress := func(s string) {
		if !o.json {
			fmt.Fprintf(stderr, "gosct confirm: %s\n", s)
		}
	}
	res, err := runConfirm(ctx, t, lay, o, nil, progress)
	if err != nil {
		fmt.Fprintf(stderr, "gosct confirm: %v\n", err)
		return exitError
	}
	if o.json {
		b, _ := json.Marshal(confirmJSON(t, res, cwd))
		fmt.Fprintln(stdout, string(b))
	} else {
		printConfirm(stdout, t, res, cwd)
	}
	if res.Confirmed {
		return exitOK
	}
	return exitBug
}

// runConfirm confirms trace t's bug with the options o.
func runConfirm(ctx context.Context, t *replay.Trace, lay confirm.Layout, o *confirmOptions, bounds *confirm.Bounds, progress func(string)) (*confirm.Result, error) {
	hows, err := o.hows()
	if err != nil {
		return nil, err
	}
	race := false
	for _, b := range o.gotest.build {
		race = race || b == "-race" || b == "-race=true"
	}
	var flags []string
	for _, b := range o.gotest.build {
		if b != "-race" && b != "-race=true" && !strings.HasPrefix(b, "-tags") {
			flags = append(flags, b)
		}
	}
	return confirm.Confirm(ctx, t, confirm.Options{
		Layout: lay, Tags: o.gotest.tags, Race: race, GoFlags: flags,
		Runs: o.runs, Timeout: o.timeout, Bounds: bounds, Parallel: o.parallel, Sleep: o.sleep, Hows: hows,
		Progress: progress,
	})
}

// traceLayout finds the trace's package on disk, as gosct replay does:
// the directory it recorded, else a checkout of its module holding the
// trace or the working directory.
func traceLayout(t *replay.Trace, tracePath, cwd string) (confirm.Layout, error) {
	l := confirm.Layout{Package: t.Package, Module: t.Module}
	if t.Dir != "" {
		if fi, err := os.Stat(t.Dir); err == nil && fi.IsDir() {
			l.Dir = t.Dir
		}
	}
	if l.Dir == "" {
		l.Dir = findPackageDir(t.Module, t.Package, filepath.Dir(tracePath), cwd)
	}
	if l.Dir == "" {
		return l, fmt.Errorf("cannot find package %s (run gosct confirm inside its module)", t.Package)
	}
	if t.Module != "" {
		rel := strings.TrimPrefix(strings.TrimPrefix(t.Package, t.Module), "/")
		root := l.Dir
		if rel != "" {
			root = strings.TrimSuffix(l.Dir, string(filepath.Separator)+filepath.FromSlash(rel))
		}
		if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil && goModPath(data) == t.Module {
			l.Root = root
		}
	}
	return l, nil
}

// confirmSummary is the result's one line, positions relative to cwd.
func confirmSummary(res *confirm.Result, cwd string) string {
	return res.Summary(func(p string) string {
		if l := relLocation(cwd, p); l.file != "" {
			return fmt.Sprintf("%s:%d", l.file, l.line)
		}
		return p
	})
}

func printConfirm(w io.Writer, t *replay.Trace, res *confirm.Result, cwd string) {
	fmt.Fprintf(w, "%s in %s: %s\n", t.Bug.Kind, t.Test, confirmSummary(res, cwd))
	if res.Expected != "" {
		fmt.Fprintf(w, "    the same way: %s\n", res.Expected)
	}
	for _, h := range res.Holds {
		at := "at"
		if h.At.After {
			at = "after" // it never ran again in the schedule
		}
		line := fmt.Sprintf("    G%d %s at decision %d, %s %s", h.At.G, h.Why, h.Decision, at, h.At.Pos())
		if h.Until != nil {
			line += fmt.Sprintf(", until G%d reaches %s", h.Until.G, h.Until.Pos())
		}
		fmt.Fprintln(w, line)
	}
	if res.Check != "" {
		fmt.Fprintf(w, "    leak check: %s\n", res.Check)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "    note: %s\n", n)
	}
	if res.TimeoutWhy != "" {
		fmt.Fprintf(w, "    each run: go test -timeout %s (%s)\n", res.Timeout, res.TimeoutWhy)
	}
	if len(res.Tried) > 1 || !res.Confirmed {
		for _, a := range res.Tried {
			fmt.Fprintf(w, "    tried %s\n", a)
		}
	}
	if res.Patch != "" {
		// go test's -timeout bounds the whole -count: runs that wait
		// for a long timer need more than its default 10m.
		timeout := ""
		if all := res.Timeout * time.Duration(res.Runs); all > 10*time.Minute {
			timeout = " -timeout " + all.String()
		}
		fmt.Fprintf(w, "    the patch (patch -p1 in %s), then go test -run '%s' -count=%d%s:\n", patchRoot(t, res), "^"+strings.SplitN(t.Test, "/", 2)[0]+"$", res.Runs, timeout)
		fmt.Fprint(w, indent(strings.TrimRight(res.Patch, "\n"), "    ")+"\n")
	}
}

// patchRoot is the directory the patch's paths are relative to.
func patchRoot(t *replay.Trace, res *confirm.Result) string {
	if t.Module != "" {
		return "the root of module " + t.Module
	}
	return "the package's directory"
}

// jsonConfirm is gosct confirm --json's object, and a bug's "confirm"
// field with gosct test --confirm.
type jsonConfirm struct {
	Event      string   `json:"event,omitempty"`
	Test       string   `json:"test,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Confirmed  bool     `json:"confirmed"`
	Unprompted bool     `json:"unprompted,omitempty"`
	Same       int      `json:"same"`
	Runs       int      `json:"runs"`
	How        string   `json:"how,omitempty"`
	Delays     []string `json:"delays,omitempty"`
	// Departures is how many holds the schedule gave before they were
	// reduced to Delays.
	Departures int      `json:"departures,omitempty"`
	Summary    string   `json:"summary"`
	Check      string   `json:"check,omitempty"`
	Patch      string   `json:"patch,omitempty"`
	Tried      []string `json:"tried,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	// TimeoutS is each run's go test -timeout, in seconds.
	TimeoutS float64 `json:"timeout_s,omitempty"`
	// Trace, with gosct test --confirm, is the trace confirmed when it
	// is not the bug's: one recorded again in fresh processes
	// (rerecord.go).
	Trace string `json:"trace,omitempty"`
}

func confirmJSON(t *replay.Trace, res *confirm.Result, cwd string) jsonConfirm {
	j := jsonConfirm{Event: "confirm", Test: t.Test, Confirmed: res.Confirmed, Unprompted: res.Unprompted,
		Same: res.Same, Runs: res.Runs, How: string(res.How), Departures: res.Departures, Summary: confirmSummary(res, cwd),
		Check: res.Check, Patch: res.Patch, Notes: res.Notes, TimeoutS: res.Timeout.Seconds()}
	if t.Bug != nil {
		j.Kind = t.Bug.Kind
	}
	for _, d := range res.Delays {
		if l := relLocation(cwd, d); l.file != "" {
			d = fmt.Sprintf("%s:%d", l.file, l.line)
		}
		j.Delays = append(j.Delays, d)
	}
	for _, a := range res.Tried {
		j.Tried = append(j.Tried, a.String())
	}
	return j
}

// confirming confirms the bugs of gosct test --confirm, each distinct bug
// once.
type confirming struct {
	o    confirmOptions
	done map[string]*jsonConfirm
	// bounds: a test with several bugs is measured once.
	bounds confirm.Bounds
	// rerec holds, by the bug's trace, the trace recorded again in fresh
	// processes for a bug whose trace lacks what gosct confirm needs
	// (rerecord.go).
	rerec map[string]rerecorded
}

func newConfirming(gt *goTestFlags) *confirming {
	c := &confirming{done: map[string]*jsonConfirm{}, rerec: map[string]rerecorded{}}
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	addConfirmFlags(fs, &c.o) // the defaults
	c.o.gotest = *gt
	return c
}

// confirmBug confirms bug e's trace under go test; nil without --confirm,
// for a bug confirmed before (its key), or one with no trace.
func (r *runner) confirmBug(e wire.Event) *jsonConfirm {
	c := r.confirming
	if c == nil || e.Trace == "" {
		return nil
	}
	key := confirmKey(e)
	if j, ok := c.done[key]; ok {
		return j
	}
	path := e.Trace
	rr, again := c.rerec[e.Trace]
	if again && rr.failed && r.ctx.Err() == nil {
		j := jsonConfirm{Summary: "not confirmed: the trace does not record which goroutines could run at each decision: the bug did not come back when gosct ran its schedule again to record them, in the process that found it (uncontrolled code, or state carried between the schedules of one process); " + rr.note}
		c.done[key] = &j
		return &j
	}
	if again && !rr.failed {
		path = rr.trace
	}
	t, err := replay.Read(path)
	var j jsonConfirm
	if err == nil {
		var lay confirm.Layout
		lay, err = traceLayout(t, path, r.rep.cwd)
		if err == nil {
			var res *confirm.Result
			res, err = runConfirm(r.ctx, t, lay, &c.o, &c.bounds, func(string) {})
			if err == nil {
				j = confirmJSON(t, res, r.rep.cwd)
				j.Event, j.Test, j.Kind = "", "", ""
				if again && !rr.failed {
					j.Trace = rr.trace
					j.Notes = append([]string{rr.note}, j.Notes...)
				}
			}
		}
	}
	switch {
	case r.ctx.Err() != nil && !j.Confirmed:
		j = jsonConfirm{Summary: "not confirmed: gosct test was interrupted (an interrupt, or a bound on the whole run) before go test had run the test with its delays: gosct confirm " + e.Trace + " confirms it on its own"}
	case err != nil:
		j = jsonConfirm{Summary: "not confirmed: " + err.Error()}
	}
	c.done[key] = &j
	return &j
}

// confirmKey is what tells two bugs apart for confirming each once.
func confirmKey(e wire.Event) string {
	key := e.Package + "\x00" + e.Key
	if e.Key == "" {
		key += e.Kind + "\x00" + e.Test + "\x00" + firstLine(e.Message)
	}
	return key
}

// needs reports whether bug e is still to be confirmed.
func (c *confirming) needs(e wire.Event) bool {
	_, done := c.done[confirmKey(e)]
	return e.Trace != "" && !done
}
