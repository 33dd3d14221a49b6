// Package confirm shows a bug gosct found under plain go test: from the
// bug's minimized schedule (a replay.Trace) it derives the places where
// the schedule departs from what Go does unprompted (Plan), inserts at
// exactly those places a call that holds the goroutine back (a sleep, a
// handshake with the goroutine that ran in its place, or a Gosched
// loop) in a copy of the user's files (a go test -overlay: the files
// themselves are never written), runs the test with go test many times
// and counts the runs that fail the same way (the same kind of bug at
// the same place). The inserted lines come back as a patch the user can
// apply to see the bug for themselves.
//
// It is run by the command (gosct confirm, gosct test --confirm) and
// depends on replay and strategies only.
package confirm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gosct/gosct/replay"
)

// Options say how to confirm a trace's bug.
type Options struct {
	Layout Layout
	// Tags and Race are the build's: a race is always confirmed under
	// -race.
	Tags string
	Race bool
	// GoFlags are other build flags for go test -c.
	GoFlags []string
	// Runs is how many times the test runs per way tried (default 20).
	Runs int
	// Timeout bounds one run (go test -timeout): a deadlock shows as go
	// test's timeout. Zero: three times what the test takes under go test
	// as it is, at least 3s (timeout.go).
	Timeout time.Duration
	// Bounds, when set, keeps the measured bound of each test across
	// calls, shared by the caller (timeout.go).
	Bounds *Bounds
	// Parallel runs at once (default 4: a run that deadlocks waits, idle, for its timeout).
	Parallel int
	// Sleep is how long a sleeping hold lasts (default 20ms).
	Sleep time.Duration
	// Hows are the ways to try, in order (default Sleep, Targeted, Handshake, Yield).
	Hows []How
	// ReduceTries bounds the attempts spent, once a way confirms with
	// more than a few holds, on finding fewer that still do (reduce.go;
	// default 8 plus 2 per halving the holds allow, negative for none).
	// The reduction also stops after three times as long as the
	// confirmation took before it (at least a minute).
	ReduceTries int
	// Progress, when set, is told what is being tried.
	Progress func(string)
}

// Result is what go test showed.
type Result struct {
	// Confirmed: at least one run failed the same way.
	Confirmed bool
	// Unprompted: no hold was needed (the schedule is Go's own default).
	Unprompted bool
	// Same of Runs runs failed the same way, with How.
	Same, Runs int
	How        How
	// Expected describes the bug as go test must show it.
	Expected string
	// Holds are the departures placed, Delays their positions (absolute
	// file:line of each inserted hold).
	Holds  []Hold
	Delays []string
	// Departures is the number of holds the schedule gave, before they
	// were reduced to Holds.
	Departures int
	// Check says what was inserted to see the bug besides the holds (a
	// leak check), "" for nothing.
	Check string
	// Patch is the change, as a unified diff relative to the module's
	// root (or the package's directory).
	Patch string
	// Tried lists every attempt, the one reported included.
	Tried []Attempt
	// Notes say what could not be done (a hold that could not be placed).
	Notes []string
	// Reason says why nothing could be tried, when so.
	Reason string
	// Timeout is the go test -timeout of each run, and TimeoutWhy how it
	// was chosen when Options left it to Confirm.
	Timeout    time.Duration
	TimeoutWhy string
}

// Attempt is one way tried.
type Attempt struct {
	How   How
	Holds int
	// Reducing: an attempt with a part of the holds of a way that
	// confirmed (reduce.go).
	Reducing   bool
	Same, Runs int
	Passed     int
	// Other counts the other failures, by their first line.
	Other map[string]int
	Err   string
	// Timeout, when set, is the bound of this attempt's runs, longer than
	// the result's: the schedule waits for a timer (waitsForTimer).
	Timeout time.Duration
}

// String is "sleep: 3 of 20 runs fail the same way".
func (a Attempt) String() string {
	what := string(a.How)
	if a.Holds == 0 {
		what = "no delay"
	} else if a.Reducing {
		what += fmt.Sprintf(" with %d of the holds", a.Holds)
	}
	if a.Err != "" {
		return what + ": " + a.Err
	}
	s := fmt.Sprintf("%s: %d of %d runs fail the same way", what, a.Same, a.Runs)
	if n := a.Runs - a.Same - a.Passed; n > 0 {
		keys := make([]string, 0, len(a.Other))
		for k := range a.Other {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		s += fmt.Sprintf(", %d otherwise (%s)", n, keys[0])
	}
	if a.Timeout > 0 {
		s += fmt.Sprintf(" (each run bounded at %s)", a.Timeout)
	}
	return s
}

// timedOut counts the attempt's runs that go test's -timeout ended.
func (a Attempt) timedOut() int {
	n := 0
	for k, v := range a.Other {
		if strings.HasPrefix(k, "panic: test timed out") {
			n += v
		}
	}
	return n
}

// Confirm runs trace t's test under go test with the holds of its
// schedule, in the ways opts says, and returns what it showed.
//
// A trace without the goroutines that could run at each decision cannot be
// confirmed (unrecordedReason says why it lacks them).
func Confirm(ctx context.Context, t *replay.Trace, opts Options) (*Result, error) {
	start := time.Now()
	opts.defaults()
	r := &Result{}
	x, err := expectation(t)
	if err != nil {
		r.Reason = err.Error()
		return r, nil
	}
	r.Expected = x.describe()
	recorded := false
	for _, d := range t.Decisions {
		recorded = recorded || len(d.Enabled) > 0
	}
	if !recorded && len(t.Decisions) > 0 {
		r.Reason = unrecordedReason(t)
		return r, nil
	}
	if x.kind == "race" {
		opts.Race = true
	}
	test, sub, _ := strings.Cut(t.Test, "/")
	tmp, err := os.MkdirTemp("", "gosct-confirm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	c := &confirmer{opts: opts, t: t, x: x, test: test, sub: sub, tmp: tmp, fs: newFiles()}
	auto := c.opts.Timeout <= 0
	if auto {
		c.opts.Timeout, r.TimeoutWhy = c.timeout(ctx)
		if x.leakCheck {
			// The check runs in the test's cleanup, under -timeout.
			w := c.leakWait()
			c.opts.Timeout += w
			r.TimeoutWhy += fmt.Sprintf(", plus the leak check's %s", w)
		}
	}
	r.Timeout = c.opts.Timeout
	longTried := false

	full := Plan(t, false)
	plans, note := plansFor(full, Plan(t, true), maxHolds(c.opts.Timeout, c.opts.Sleep))
	attempt := func(ctx context.Context, holds []Hold, how How) *try {
		tr := c.attempt(ctx, holds, how)
		if auto && !longTried && x.kind != "deadlock" && tr.Same == 0 && 2*tr.timedOut() >= tr.Runs && tr.Runs > 0 && waitsForTimer(t, holds) {
			// The bug comes after a timer the bound cut short: the
			// same way again, bounded as go test bounds it (not for a
			// deadlock: its runs end at the bound). Once: a second
			// wait would be as long.
			longTried = true
			short := tr.Attempt
			tr = c.attemptLong(ctx, holds, how)
			tr.retried = &short
		}
		return tr
	}
	// Past a long schedule's last holds (note), a weak confirmation goes
	// on to the next plan: a longer tail may do better.
	best, tried, interrupted, err := search(ctx, plans, opts.Hows, note != "", attempt)
	r.Tried = tried
	if err != nil {
		return nil, err
	}
	if best == nil {
		// Report the first plan's placement: what was tried.
		tr := c.build(plans[0], opts.Hows[0])
		r.Holds, r.Delays, r.Notes, r.Check = tr.holds, tr.delays, tr.notes, tr.check
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
		return r, nil
	}
	// The schedule's departures from Go's order, though a long one's
	// plans were only its last holds (plansFor).
	r.Departures = max(len(best.holds), len(full))
	if best.Timeout == 0 {
		// (A way whose runs wait out a timer at go test's own bound is
		// too slow to try again and again.)
		rctx, cancel := context.WithTimeout(ctx, max(3*time.Since(start), time.Minute))
		var reduced []Attempt
		best, reduced = c.reduce(rctx, best)
		cancel()
		r.Tried = append(r.Tried, reduced...)
	}
	r.Confirmed = true
	r.Same, r.Runs, r.How = best.Same, best.Runs, best.How
	if best.Timeout > 0 {
		r.Timeout, r.TimeoutWhy = best.Timeout, longWhy
	}
	r.Holds, r.Delays, r.Notes, r.Check, r.Patch = best.holds, best.delays, best.notes, best.check, best.patch
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	r.Unprompted = len(best.holds) == 0
	if interrupted {
		r.Notes = append(r.Notes, "interrupted (the run was stopped) before every way was tried: the figures are those of the ways tried")
	}
	return r, nil
}

// maxHolds is how many holds a run bounded at timeout has room for,
// each a delay of at least sleep: half the bound's worth.
func maxHolds(timeout, sleep time.Duration) int {
	return max(1, int(timeout/sleep/2))
}

// plansFor is the plans to try, in order, from a schedule's holds (full)
// and its holds with the goroutines started or woken late (late): both,
// when they fit in a run (at most most holds). A schedule that departs
// from Go's more often (a search that found the bug deep in a long test,
// and a minimization that ran out of time before shrinking it) cannot be
// played whole under go test: every hold costs a delay, and a loop of a
// thousand of them outlasts any bound. Then the plans are the last holds
// of each, nearest the bug, where its decisive departure usually is: the
// last one, the last 8, the last most, each of full then of late; note
// says so.
func plansFor(full, late []Hold, most int) (plans [][]Hold, note string) {
	withLate := len(late) > len(full)
	if len(full) <= most {
		plans = [][]Hold{full}
		if withLate {
			plans = append(plans, late[max(0, len(late)-most):])
		}
		return plans, ""
	}
	same := func(a, b []Hold) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i].Decision != b[i].Decision || a[i].At.G != b[i].At.G || a[i].Why != b[i].Why {
				return false
			}
		}
		return true
	}
	add := func(p []Hold) {
		for _, q := range plans {
			if same(p, q) {
				return
			}
		}
		plans = append(plans, p)
	}
	var sizes []string
	for _, n := range []int{1, 8, most} {
		if n > most || len(sizes) > 0 && sizes[len(sizes)-1] == strconv.Itoa(n) {
			continue
		}
		sizes = append(sizes, strconv.Itoa(n))
		for _, hs := range [][]Hold{full, lateOrNil(late, withLate)} {
			if len(hs) == 0 {
				continue
			}
			if len(hs) <= n {
				add(hs)
			} else {
				add(hs[len(hs)-n:])
			}
		}
	}
	return plans, fmt.Sprintf("the schedule departs from Go's %d times, more than a run bounded at its timeout has room for (at most %d holds): only its last holds, nearest the bug, were tried (the last %s, with and without the goroutines started or woken late)", len(full), most, strings.Join(sizes, ", then "))
}

func lateOrNil(late []Hold, with bool) []Hold {
	if with {
		return late
	}
	return nil
}

// search tries the ways hows on each plan in turn (attempt builds and
// runs one), and returns the best attempt that showed the bug, with every
// attempt tried. It stops at the first plan with an attempt that showed
// it, and within a plan at the first attempt that showed it in half its
// runs or more. When ctx ends, the attempts finished stand (interrupted);
// with none that showed the bug, the error is ctx's. weakGoesOn: a plan
// whose best showed the bug in fewer than half its runs does not stop the
// search.
func search(ctx context.Context, plans [][]Hold, hows []How, weakGoesOn bool, attempt func(context.Context, []Hold, How) *try) (best *try, tried []Attempt, interrupted bool, err error) {
	for _, holds := range plans {
		ways := hows
		if len(holds) == 0 {
			ways = []How{Sleep} // nothing to hold: one run of the test as it is
		}
		for _, how := range ways {
			if ctx.Err() != nil {
				if best == nil {
					return nil, tried, false, ctx.Err()
				}
				// What the ways tried showed stands: the others
				// could only do better.
				return best, tried, true, nil
			}
			tr := attempt(ctx, holds, how)
			if ctx.Err() != nil && tr.Runs == 0 {
				continue // cut short: no runs to count
			}
			if tr.retried != nil {
				tried = append(tried, *tr.retried)
			}
			tried = append(tried, tr.Attempt)
			if tr.Same > 0 && (best == nil || tr.Same*best.Runs > best.Same*tr.Runs) {
				best = tr
			}
			if best != nil && 2*best.Same >= best.Runs {
				return best, tried, false, nil // reliable enough: the other ways cannot do much better
			}
		}
		if best != nil && (!weakGoesOn || 2*best.Same >= best.Runs) {
			return best, tried, false, nil
		}
	}
	if best != nil {
		return best, tried, false, nil
	}
	return nil, tried, false, ctx.Err()
}

func (o *Options) defaults() {
	if o.Runs <= 0 {
		o.Runs = 20
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	if o.Sleep <= 0 {
		o.Sleep = 20 * time.Millisecond
	}
	if len(o.Hows) == 0 {
		o.Hows = []How{Sleep, Targeted, Handshake, Yield}
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
}

// confirmer confirms one trace.
type confirmer struct {
	opts      Options
	t         *replay.Trace
	x         expect
	test, sub string
	tmp       string
	fs        *files
	n         int
}

// try is one attempt and its patch.
type try struct {
	Attempt
	ps     *patchSet
	holds  []Hold
	delays []string
	notes  []string
	check  string
	patch  string
	// retried is the attempt this one made again, bounded longer
	// (attemptLong).
	retried *Attempt
}

// build places the holds in the way how.
func (c *confirmer) build(holds []Hold, how How) *try {
	tr := &try{Attempt: Attempt{How: how}, ps: &patchSet{helpers: map[string]string{}}}
	type key struct {
		file string
		off  int
		w    insertion
	}
	siteNum := map[key]int{}
	type pkgKey struct{ dir, pkg string }
	sites := map[pkgKey]map[int][]action{}
	nonTest := map[pkgKey]bool{}
	seq := 0
	add := func(s site, a action, comment string) {
		k := key{s.file, s.off, s.where}
		num, ok := siteNum[k]
		pk := pkgKey{filepath.Dir(s.file), s.pkg}
		if !ok {
			num = len(siteNum) + 1
			siteNum[k] = num
			code := s.code("gosctConfirm(" + strconv.Itoa(num) + ")")
			seq++
			tr.ps.edits = append(tr.ps.edits, edit{file: s.file, off: s.off, ownLine: s.ownLine, line: s.line, code: code, comment: comment, indent: s.indent, seq: seq})
			if sites[pk] == nil {
				sites[pk] = map[int][]action{}
			}
			if !strings.HasSuffix(s.file, "_test.go") {
				nonTest[pk] = true
			}
		} else if comment != "" {
			for i := range tr.ps.edits {
				if e := &tr.ps.edits[i]; e.file == s.file && e.off == s.off && e.code != "" && strings.Contains(e.code, "("+strconv.Itoa(num)+")") {
					if e.comment == "" {
						e.comment = comment
					} else {
						e.comment += "; " + comment
					}
				}
			}
		}
		sites[pk][num] = append(sites[pk][num], a)
	}
	timeImported := map[string]bool{}
	for i, h := range holds {
		s, err := c.fs.locate(c.opts.Layout, h.At)
		if err != nil {
			tr.notes = append(tr.notes, fmt.Sprintf("G%d %s at decision %d: no delay placed: %v", h.At.G, h.Why, h.Decision, err))
			continue
		}
		if how == Sleep {
			// A plain sleep, for every goroutine passing: no helper.
			name, imp, err := c.fs.timeName(s.file)
			if err != nil {
				tr.notes = append(tr.notes, fmt.Sprintf("G%d %s at decision %d: no delay placed: %v", h.At.G, h.Why, h.Decision, err))
				continue
			}
			if imp != nil && !timeImported[s.file] {
				timeImported[s.file] = true
				seq++
				imp.seq = seq
				tr.ps.edits = append(tr.ps.edits, *imp)
			}
			d := c.opts.Sleep
			if h.Timer {
				d = max(5*c.opts.Sleep, 50*time.Millisecond)
			}
			code := s.code(name + ".Sleep(" + strings.ReplaceAll(goDuration(d), "time.", name+".") + ")")
			k := key{s.file, s.off, s.where}
			if _, dup := siteNum[k]; !dup {
				siteNum[k] = len(siteNum) + 1
				seq++
				tr.ps.edits = append(tr.ps.edits, edit{file: s.file, off: s.off, ownLine: s.ownLine, line: s.line, code: code,
					comment: fmt.Sprintf("gosct confirm: G%d %s here", h.At.G, h.Why), indent: s.indent, seq: seq})
			}
			tr.holds = append(tr.holds, h)
			tr.delays = append(tr.delays, s.file+":"+strconv.Itoa(s.line))
			continue
		}
		gate := i + 1
		a := action{hold: true, gate: gate, n: h.At.N - s.nShift, nth: h.At.Nth, callers: s.callers, timer: h.Timer, alone: true}
		var rel *site
		if h.Until != nil {
			if rs, err := c.fs.locate(c.opts.Layout, *h.Until); err == nil && filepath.Dir(rs.file) == filepath.Dir(s.file) && rs.pkg == s.pkg {
				rel = &rs
				a.alone = false
			}
		}
		a.what = fmt.Sprintf("G%d %s (decision %d)", h.At.G, h.Why, h.Decision)
		comment := "gosct confirm: hold G" + strconv.Itoa(h.At.G) + " here"
		if h.Until != nil {
			comment += fmt.Sprintf(" until G%d reaches %s", h.Until.G, h.Until.Pos())
		} else if h.Timer {
			comment += " until a timer fires"
		}
		// The release first: a goroutine released and held at one
		// place lets the other go before it waits.
		if rel != nil {
			add(*rel, action{gate: gate, n: h.Until.N - rel.nShift, nth: h.Until.Nth, callers: rel.callers, what: fmt.Sprintf("G%d ends G%d's hold", h.Until.G, h.At.G)}, "")
		}
		add(s, a, comment)
		tr.holds = append(tr.holds, h)
		tr.delays = append(tr.delays, s.file+":"+strconv.Itoa(s.line))
	}
	leakCheck := c.x.leakCheck
	var leakPkg pkgKey
	if leakCheck {
		path, off, line, indent, param, err := c.fs.testFunc(c.opts.Layout.Dir, c.test)
		if err != nil {
			tr.notes = append(tr.notes, "no leak check inserted: "+err.Error())
			leakCheck = false
		} else {
			f, _, _ := c.fs.parse(path)
			leakPkg = pkgKey{filepath.Dir(path), f.Name.Name}
			if sites[leakPkg] == nil {
				sites[leakPkg] = map[int][]action{}
			}
			seq++
			tr.ps.edits = append(tr.ps.edits, edit{file: path, off: off, ownLine: true, line: line, code: "gosctConfirmLeaks(" + param + ")",
				comment: "gosct confirm: fail if goroutines stay blocked where gosct saw them leak", indent: indent, seq: seq})
			tr.check = fmt.Sprintf("a check inserted at the start of %s (t.Cleanup): after the test returns, the goroutines must leave %s within %s, else the test fails (as goleak does)", c.test, strings.Join(trimSlash(c.x.at), ", "), leakGrace)
			if w := c.leakWait(); w > leakGrace {
				tr.check += fmt.Sprintf("; it looks for them for %s, as they may get there only when a timer fires after the test", w)
			}
		}
	}
	for pk, ss := range sites {
		p := helperParams{how: how, sleep: c.opts.Sleep, timer: max(5*c.opts.Sleep, 50*time.Millisecond), maxWait: time.Second, yields: 1000, leaks: c.x.leaked, grace: leakGrace, wait: c.leakWait()}
		tr.ps.helpers[helperPath(pk.dir, pk.pkg, nonTest[pk])] = helper(pk.pkg, ss, p, leakCheck && pk == leakPkg)
	}
	tr.Holds = len(tr.holds)
	return tr
}

// goTestTimeout is go test's own default -timeout: the bound of a run
// whose bug comes after a timer (waitsForTimer), as plain go test would
// wait for it.
const goTestTimeout = 10 * time.Minute

const longWhy = "go test's default: the schedule waits for a timer after its last hold, with every goroutine blocked, and the runs bounded at the measured bound timed out waiting for it (the trace does not record how long it is)"

// waitsForTimer reports whether trace t's schedule, after the last of
// holds, fires a timer that nothing could run before (not early): every
// goroutine blocked until then. Under go test that wait is the timer's
// whole duration (a test's own one-minute context), which the measured
// bound of a run, made for a test that takes milliseconds, cuts short.
func waitsForTimer(t *replay.Trace, holds []Hold) bool {
	last := 0
	for _, h := range holds {
		last = max(last, h.Decision)
	}
	for _, st := range t.Steps {
		if clockStep(st) && !st.Early && st.Decision > last {
			return true
		}
	}
	return false
}

// clockStep reports whether step st is the clock's: a timer firing ("timer
// fires", a timer starting its goroutine; "timer chan fires early: ...").
func clockStep(st replay.Step) bool {
	return st.G < 0 && strings.HasPrefix(st.Op, "timer ")
}

// attemptLong is attempt with each run bounded at go test's default
// -timeout, all runs at once: they wait, idle, for the timer.
func (c *confirmer) attemptLong(ctx context.Context, holds []Hold, how How) *try {
	timeout, parallel := c.opts.Timeout, c.opts.Parallel
	defer func() { c.opts.Timeout, c.opts.Parallel = timeout, parallel }()
	c.opts.Timeout, c.opts.Parallel = goTestTimeout, max(parallel, c.opts.Runs)
	c.opts.Progress(fmt.Sprintf("%s: the runs timed out, and the schedule waits for a timer: again, each run bounded at %s", how, goTestTimeout))
	tr := c.attempt(ctx, holds, how)
	tr.Timeout = goTestTimeout
	return tr
}

// leakGrace is how long goroutines may take to leave after the test.
const leakGrace = time.Second

// leakTimerWait is how long the leak check looks for the goroutines when
// the trace's schedule fired timers after the test returned: a goroutine
// may reach the place where it leaks only then (a removal that times out
// after a second, then sends to a supervisor stopped by then).
const leakTimerWait = 5 * time.Second

// leakWait is how long, after the test returns, the leak check looks for
// the goroutines where gosct saw them leak: leakGrace, or leakTimerWait
// when timers fired after the test in the trace's schedule.
func (c *confirmer) leakWait() time.Duration {
	if timersAfterTest(c.t) {
		return leakTimerWait
	}
	return leakGrace
}

// timersAfterTest reports whether trace t's schedule fires a timer after
// the test goroutine returned.
func timersAfterTest(t *replay.Trace) bool {
	exited := false
	for _, st := range t.Steps {
		switch {
		case st.G == 0 && st.Op == "exit":
			exited = true
		case exited && clockStep(st):
			return true
		}
	}
	return false
}

// attempt builds and runs one way.
func (c *confirmer) attempt(ctx context.Context, holds []Hold, how How) *try {
	tr := c.build(holds, how)
	if len(holds) > 0 && tr.Holds == 0 {
		tr.Err = "no delay could be placed"
		return tr
	}
	c.n++
	dir := filepath.Join(c.tmp, strconv.Itoa(c.n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tr.Err = err.Error()
		return tr
	}
	root := c.opts.Layout.Root
	if root == "" {
		root = c.opts.Layout.Dir
	}
	patch, err := tr.ps.patch(root)
	if err != nil {
		tr.Err = err.Error()
		return tr
	}
	tr.patch = patch
	what := string(how)
	if tr.Holds == 0 {
		what = "no delay"
	}
	c.opts.Progress(fmt.Sprintf("%s, %d hold(s): building", what, tr.Holds))
	bin, err := c.compile(ctx, tr.ps, dir)
	if err != nil {
		tr.Err = err.Error()
		return tr
	}
	c.opts.Progress(fmt.Sprintf("%s: running the test %d times", what, c.opts.Runs))
	vs := c.runAll(ctx, bin)
	tr.Runs = len(vs)
	tr.Other = map[string]int{}
	for _, v := range vs {
		switch {
		case v.same:
			tr.Same++
		case v.other == "":
			tr.Passed++
		default:
			tr.Other[v.other]++
		}
	}
	return tr
}

// Summary is the result's first line: "confirmed under go test: 37 of
// 100 runs fail the same way with these 2 delays: a.go:3, b.go:9", or
// "not confirmed ...". rel renders a position.
func (r *Result) Summary(rel func(string) string) string {
	if rel == nil {
		rel = func(s string) string { return s }
	}
	if !r.Confirmed {
		if r.Reason != "" {
			return "not confirmed: " + r.Reason
		}
		var tried []string
		for _, a := range r.Tried {
			tried = append(tried, a.String())
		}
		return "not confirmed under go test (tried " + strings.Join(tried, "; ") + "; each run bounded at " + r.Timeout.String() + ")"
	}
	if r.Unprompted {
		return fmt.Sprintf("confirmed under go test with no delay: reachable by Go unprompted: go test found it %d of %d times", r.Same, r.Runs)
	}
	ds := make([]string, len(r.Delays))
	for i, d := range r.Delays {
		ds[i] = rel(d)
	}
	what := fmt.Sprintf("these %d delays", len(ds))
	if len(ds) == 1 {
		what = "this delay"
	}
	list := strings.Join(ds, ", ")
	if len(ds) > summaryDelays {
		// A first line a user reads: the patch has them all.
		list = strings.Join(ds[:summaryDelays], ", ") + fmt.Sprintf(" and %d more (the patch)", len(ds)-summaryDelays)
	}
	how := string(r.How)
	if r.Departures > len(r.Holds) {
		how += fmt.Sprintf(", %d of the schedule's %d departures", len(r.Holds), r.Departures)
	}
	return fmt.Sprintf("confirmed under go test: %d of %d runs fail the same way with %s (%s): %s", r.Same, r.Runs, what, how, list)
}

// summaryDelays is how many delays Summary names.
const summaryDelays = 10

// unrecordedReason says why trace t lacks the goroutines that could run
// at each decision: gosct records them in a second, detailed run of the
// schedule, and keeps the first run's trace when the bug does not come
// back in it (uncontrolled code, or state the schedules before it left in
// the process: tidwall/buntdb's tests share a database file); or the trace
// is older than gosct confirm.
func unrecordedReason(t *replay.Trace) string {
	if t.Uncontrolled {
		return "the trace does not record which goroutines could run at each decision: the bug did not come back when gosct ran its schedule again to record them (uncontrolled code, or state carried between the schedules of one process); gosct test --confirm finds such a bug again in fresh processes (--per-process) and confirms that trace; by hand, find it again with --per-process, then confirm its new trace"
	}
	return "the trace does not record which goroutines could run at each decision (written by an older gosct): find the bug again, then confirm its new trace"
}
