package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// reporter prints what the test binaries report, for people or (--json)
// for programs, and keeps the totals for the summary. Its methods may be
// called while the progress line is drawn: they clear it first.
type reporter struct {
	mu       sync.Mutex
	stdout   io.Writer
	stderr   io.Writer
	json     bool
	verbose  bool
	progress *progress
	// cwd is what bug locations are relative to.
	cwd string
	// gojson, when set, writes go test's JSON stream instead of the
	// reporter's own output (--json=go).
	gojson *goJSON
	// annot writes CI annotations of the distinct bugs (--annotations);
	// cov gathers the coverage of the exploration (--coverage).
	annot *annotator
	cov   *coverageReport

	strategy string
	seed     int64
	start    time.Time

	schedules int
	exploreS  float64
	bugs      int
	timing    int // bugs that are timing-dependent
	nondet    int
	keys      map[string]bool
	tests     int
	exhausted int
	// proved counts the exhausted searches that are proofs; the others
	// (bounded, or depending on what the search did not explore) say
	// "not a proof" (wire.Event.Unproved).
	proved int
	// notExplored lists the tests stopped before their limits without a
	// bug (wire.OutcomeNotExplored), with the reason.
	notExplored []string
	// saturated counts the tests the saturation rule stopped without a
	// bug (wire.Event.Saturated).
	saturated  int
	searches   []searchLine // per test, for the summary of a systematic search
	errors     int
	systematic bool

	// out, when set, is the run's results directory (--results): it
	// gets every object of the --json output, and the package lines.
	out *resultsWriter
	// pkgs gives each package's position and selected tests, for its
	// line in the results directory.
	pkgs map[string]pkgPos
	// shard names this run's part of a divided search ("2/8"), "" for a
	// whole run.
	shard string
	// In gosct merge's summary: the wall clock of the run (the longest
	// shard's) and of its exploration, and the number of shards; 0 in a
	// run.
	wallS, mergedExploreS float64
	shards                int
}

// pkgPos is a package's position among the run's and its selected tests.
type pkgPos struct {
	index int
	tests []string
}

func newReporter(stdout, stderr io.Writer, json, verbose bool, strategy string, seed int64) *reporter {
	return &reporter{
		stdout: stdout, stderr: stderr, json: json, verbose: verbose,
		strategy: strategy, seed: seed, start: time.Now(),
		keys: map[string]bool{}, systematic: isSystematic(strategy), cwd: workDir(),
	}
}

// isSystematic reports a strategy that can exhaust its search space.
func isSystematic(strategy string) bool {
	i, _ := strategies.Lookup(strategy)
	return i.Systematic
}

// jsonBug is the "bug" object of --json; the fields of the command-line
// contract are never omitted.
type jsonBug struct {
	Event    string `json:"event"`
	Package  string `json:"package"`
	Test     string `json:"test"`
	Kind     string `json:"kind"`
	Schedule int    `json:"schedule"`
	Strategy string `json:"strategy"`
	Trace    string `json:"trace"`
	Message  string `json:"message"`
	// Timing, for a timing-dependent bug (its schedule needs a goroutine
	// that could run to wait while a timer fires), says what it needs.
	Timing     string `json:"timing,omitempty"`
	Key        string `json:"key,omitempty"`
	Report     string `json:"report,omitempty"`
	Regression string `json:"regression,omitempty"` // the regression trace that found it
	Replayed   bool   `json:"replayed,omitempty"`
	// File and Line are the bug's user location (the report's first
	// line), File relative to the working directory when inside it.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Size is the size of the schedule the trace holds, From the size it
	// was shrunk from (absent: not shrunk).
	Size *wire.Size `json:"size,omitempty"`
	From *wire.Size `json:"from,omitempty"`
	// Confirm is the bug's confirmation under go test (--confirm).
	Confirm *jsonConfirm `json:"confirm,omitempty"`
}

type jsonTest struct {
	Event   string `json:"event"`
	Package string `json:"package"`
	Test    string `json:"test"`
	// Result is "ok", "bug" or "not explored" (wire.Event.Outcome).
	Result    string  `json:"result"`
	Schedules int     `json:"schedules"`
	Bugs      int     `json:"bugs"`
	ElapsedS  float64 `json:"elapsed_s"`
	Exhausted bool    `json:"exhausted"`
	// Unproved: exhausted, but not a proof (a bound, a divergence, a
	// value or code the search did not explore); NotProof says why.
	Unproved bool   `json:"unproved,omitempty"`
	NotProof string `json:"not_proof,omitempty"`
	Status   string `json:"status,omitempty"`
	// Resumed: schedules of earlier runs of a saved search (--state).
	Resumed int `json:"resumed,omitempty"`
	// Stopped says why the exploration stopped before its limits:
	// "interrupted", "skipped", "too long", "could not complete".
	Stopped string `json:"stopped,omitempty"`
	// Uncontrolled: schedules that depended on uncontrolled code (they
	// may not replay exactly); UncontrolledReplayed: those of them that
	// replayed, with --check-replay.
	Uncontrolled         int `json:"uncontrolled,omitempty"`
	UncontrolledReplayed int `json:"uncontrolled_replayed,omitempty"`
	// Probes: executions a part of a divided tree ran outside its part
	// (--shard), not counted in Schedules.
	Probes int `json:"probes,omitempty"`
	// SaturatedAfter: the saturation rule stopped the test, whose
	// sampled coverage reached nothing new after this schedule (not a
	// proof: Schedules ran, no bug among them).
	SaturatedAfter int `json:"saturated_after,omitempty"`
}

type jsonMessage struct {
	Event   string `json:"event"` // "error", "warning", "diverged", "nondeterministic"
	Package string `json:"package,omitempty"`
	Test    string `json:"test,omitempty"`
	Trace   string `json:"trace,omitempty"`
	Message string `json:"message"`
	// Schedule and Source, for "nondeterministic" (and "diverged"): the
	// schedule, and the kind of the likely source ("rand", "map order",
	// "changed file", ...).
	Schedule int    `json:"schedule,omitempty"`
	Source   string `json:"source,omitempty"`
}

type jsonSummary struct {
	Event        string `json:"event"`
	Schedules    int    `json:"schedules"`
	Bugs         int    `json:"bugs"`
	DistinctBugs int    `json:"distinct_bugs"`
	// TimingBugs counts the bugs among Bugs that are timing-dependent.
	TimingBugs    int     `json:"timing_dependent_bugs,omitempty"`
	ElapsedS      float64 `json:"elapsed_s"`
	SchedulesPerS float64 `json:"schedules_per_s"`
	Tests         int     `json:"tests"`
	Exhausted     int     `json:"exhausted_tests"`
	// Proved counts the exhausted tests whose search is a proof.
	Proved      int `json:"proved_tests"`
	NotExplored int `json:"not_explored_tests"`
	// Saturated counts the tests without a bug that the saturation rule
	// stopped.
	Saturated int `json:"saturated_tests,omitempty"`
	Errors    int `json:"errors"`
	// Nondeterministic counts the schedules --check-determinism found to
	// differ between their two runs.
	Nondeterministic int    `json:"nondeterministic,omitempty"`
	Strategy         string `json:"strategy"`
	Seed             int64  `json:"seed"`
	// ExploreS is the seconds of exploration (the tests' own, builds
	// excluded) that schedules_per_s divides by.
	ExploreS float64 `json:"explore_s"`
	// Shard is this run's part of a divided search ("2/8"); Shards, in
	// gosct merge's summary, the number of parts merged.
	Shard  string `json:"shard,omitempty"`
	Shards int    `json:"shards,omitempty"`
	// Coverage sums up the coverage report (--coverage).
	Coverage *jsonCovSummary `json:"coverage,omitempty"`
}

// jsonCovSummary is the coverage report's totals, in the summary.
type jsonCovSummary struct {
	Points  int    `json:"points"`
	Reached int    `json:"points_reached"`
	Pairs   int    `json:"pairs"`
	Both    int    `json:"pairs_both_orders"`
	Report  string `json:"report"`
}

func (r *reporter) emit(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs of strings and numbers
	}
	r.stdout.Write(append(b, '\n'))
}

func (r *reporter) clear() {
	if r.progress != nil {
		r.progress.clear()
	}
}

// bug reports one bug event. regression names the testdata trace whose
// replay found it ("" while exploring).
func (r *reporter) bug(pkg string, e wire.Event, regression string) {
	r.bugConfirmed(pkg, e, regression, nil)
}

// bugConfirmed is bug with the bug's confirmation under go test (nil:
// not asked for).
func (r *reporter) bugConfirmed(pkg string, e wire.Event, regression string, conf *jsonConfirm) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
	r.bugs++
	if e.Timing != "" {
		r.timing++
	}
	key := e.Key
	if key == "" {
		key = e.Kind + "\x00" + e.Test + "\x00" + firstLine(e.Message)
	}
	// Sites are file:line, which two packages may share.
	key = pkg + "\x00" + key
	dup := r.keys[key]
	r.keys[key] = true
	if e.Package != "" {
		pkg = e.Package
	}
	strategy := e.Strategy
	if strategy == "" {
		strategy = r.strategy
	}
	loc := relLocation(r.cwd, e.Pos)
	e.Report = withLocation(e.Report, e.Pos, loc)
	if r.annot != nil && !dup {
		r.annot.bug(pkg, e, e.Report)
	}
	jb := jsonBug{Event: "bug", Package: pkg, Test: e.Test, Kind: e.Kind, Schedule: e.Schedule,
		Strategy: strategy, Trace: e.Trace, Message: e.Message, Timing: e.Timing, Key: e.Key, Report: e.Report,
		Regression: regression, Replayed: e.Replayed, File: loc.file, Line: loc.line,
		Size: e.Size, From: e.From, Confirm: conf}
	if conf != nil {
		e.Report = conf.Summary + "\n" + e.Report
	}
	if r.out != nil {
		r.out.record(jb)
		r.out.observe(wire.Event{Event: "bug"})
	}
	if r.json {
		r.emit(jb)
		return
	}
	if r.gojson != nil {
		own := jb
		own.Report = "" // the subtest's output
		r.gojson.bug(pkg, e, regression, e.Report, dup && !r.verbose, own)
		return
	}
	w := r.stdout
	if dup && !r.verbose {
		kind := e.Kind
		if e.Timing != "" {
			kind += ", timing-dependent,"
		}
		fmt.Fprintf(w, "--- BUG %s in %s again (schedule %d): %s\n    replay: %s\n",
			kind, e.Test, e.Schedule, firstLine(e.Message), replayCommand(e.Trace))
		return
	}
	how := fmt.Sprintf("schedule %d, strategy %s", e.Schedule, strategy)
	if regression != "" {
		how = "regression trace " + regression
	}
	if conf != nil {
		fmt.Fprintf(w, "--- BUG %s in %s (package %s, %s): %s\n", e.Kind, e.Test, pkg, how, conf.Summary)
		_, e.Report, _ = strings.Cut(e.Report, "\n") // the summary is on the first line
	} else {
		fmt.Fprintf(w, "--- BUG %s in %s (package %s, %s)\n", e.Kind, e.Test, pkg, how)
	}
	rep := strings.Trim(e.Report, "\n")
	if e.Message != "" && !strings.Contains(rep, e.Message) {
		fmt.Fprintf(w, "%s\n", indent(e.Message, "    "))
		if rep != "" {
			fmt.Fprintln(w)
		}
	}
	if rep != "" {
		if loc.file != "" {
			// The location line stays at the start of the line, where
			// editors' error formats (file:line: message) find it.
			first, rest, _ := strings.Cut(rep, "\n")
			fmt.Fprintf(w, "%s\n", first)
			rep = rest
		}
		fmt.Fprintf(w, "%s\n\n", indent(rep, "    "))
	}
	if e.Trace != "" {
		fmt.Fprintf(w, "    trace:  %s\n    replay: %s\n", e.Trace, replayCommand(e.Trace))
		if conf != nil && conf.Patch != "" {
			fmt.Fprintf(w, "    patch:  gosct confirm %s\n", e.Trace)
		}
	} else {
		fmt.Fprintf(w, "    (no trace was written)\n")
	}
}

// test reports that a test function's exploration finished.
func (r *reporter) test(pkg string, e wire.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.schedules += e.Schedules
	r.exploreS += e.ElapsedS
	r.tests++
	if r.cov != nil {
		r.cov.testDone(pkg, e)
	}
	if e.Exhausted {
		r.exhausted++
		if !e.Unproved {
			r.proved++
		}
	}
	result := e.Outcome()
	if result == wire.OutcomeNotExplored {
		r.notExplored = append(r.notExplored, fmt.Sprintf("%s (%s)", e.Test, e.Message))
	}
	if e.Saturated > 0 && e.Bugs == 0 {
		r.saturated++
	}
	if (r.systematic || e.Exhausted) && len(r.searches) <= maxSearchLines {
		r.searches = append(r.searches, searchLine{pkg, e.Test, e.Status, e.Bugs, e.Exhausted, e.Unproved, e.Schedules, e.Saturated})
	}
	jt := jsonTest{Event: "test", Package: pkg, Test: e.Test, Result: result, Schedules: e.Schedules, Bugs: e.Bugs,
		ElapsedS: e.ElapsedS, Exhausted: e.Exhausted, Unproved: e.Unproved, NotProof: e.NotProof, Status: e.Status, Resumed: e.Resumed,
		Stopped: e.Message, Probes: e.Probes, Uncontrolled: e.Uncontrolled, UncontrolledReplayed: e.UncontrolledReplayed,
		SaturatedAfter: e.Saturated}
	if r.out != nil {
		r.out.record(jt)
		r.out.observe(wire.Event{Event: "test", Schedules: e.Schedules})
	}
	if r.json {
		r.emit(jt)
		return
	}
	if r.gojson != nil {
		r.gojson.test(pkg, e, jt)
		return
	}
	if !r.verbose {
		return
	}
	r.clear()
	fmt.Fprintf(r.stdout, "=== %s: %d schedules in %s (%s/s)", e.Test, e.Schedules, seconds(e.ElapsedS), rate(e.Schedules, e.ElapsedS))
	if e.Bugs > 0 {
		fmt.Fprintf(r.stdout, ", %d bug%s", e.Bugs, plural(e.Bugs))
	}
	if e.Status != "" {
		fmt.Fprintf(r.stdout, ", %s", e.Status)
	}
	if e.Resumed > 0 {
		fmt.Fprintf(r.stdout, " (resumed after %d schedules)", e.Resumed)
	}
	if e.Saturated > 0 {
		fmt.Fprintf(r.stdout, "; stopped: coverage saturated after schedule %d", e.Saturated)
	}
	if result == wire.OutcomeNotExplored {
		fmt.Fprintf(r.stdout, "; NOT EXPLORED (%s)", e.Message)
	}
	fmt.Fprintln(r.stdout)
}

// coverage takes what a test function's schedules reached (a "coverage"
// event) into the coverage report.
func (r *reporter) coverage(pkg string, e wire.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cov != nil {
		r.cov.add(pkg, e)
	}
}

// nondeterministic reports a schedule whose two runs differed
// (--check-determinism).
func (r *reporter) nondeterministic(pkg string, e wire.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
	r.nondet++
	own := jsonMessage{Event: "nondeterministic", Package: pkg, Test: e.Test, Message: e.Message, Schedule: e.Schedule, Source: e.Source}
	if r.json {
		r.emit(own)
		return
	}
	if r.gojson != nil {
		r.gojson.nondeterministic(pkg, e, own)
		return
	}
	fmt.Fprintf(r.stdout, "--- NONDETERMINISTIC %s (package %s, schedule %d)\n    %s\n", e.Test, pkg, e.Schedule, e.Message)
}

// message reports a warning, an error or a divergence. Errors count towards
// exit status 2.
func (r *reporter) message(kind, pkg, test, trace, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
	if kind == "error" {
		r.errors++
	}
	jm := jsonMessage{Event: kind, Package: pkg, Test: test, Trace: trace, Message: msg}
	if r.out != nil {
		r.out.record(jm)
		r.out.observe(wire.Event{Event: kind})
	}
	if r.json {
		r.emit(jm)
		return
	}
	if r.gojson != nil && r.gojson.message(kind, pkg, test, msg) {
		return
	}
	where := pkg
	if test != "" {
		where += " " + test
	}
	if where != "" {
		where += ": "
	}
	fmt.Fprintf(r.stderr, "gosct: %s%s%s\n", label(kind), where, msg)
}

func label(kind string) string {
	switch kind {
	case "warning":
		return "warning: "
	case "diverged":
		return "diverged: "
	}
	return ""
}

// output passes the output of pkg's test binary on: to stderr with --json
// (stdout holds only JSON), as the package's output with --json=go, to
// stdout otherwise, like go test.
func (r *reporter) output(pkg string, b []byte) {
	if len(b) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
	if r.gojson != nil && pkg != "" {
		r.gojson.pkg(pkg)
		r.gojson.output(pkg, "", string(b))
		return
	}
	w := r.stdout
	if r.json || r.gojson != nil {
		w = r.stderr
	}
	w.Write(b)
	if b[len(b)-1] != '\n' {
		io.WriteString(w, "\n")
	}
}

// pkgStart says that pkg's run begins (its builds and regression traces
// included), for the streams that time packages.
func (r *reporter) pkgStart(pkg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gojson != nil {
		r.gojson.pkg(pkg)
	}
}

// pkgLine prints go test's per-package line.
func (r *reporter) pkgLine(status, pkg, detail string) {
	r.pkgResult(status, pkg, -1, detail)
}

// pkgResult prints the line of a package explored for elapsed seconds
// (-1: not explored), with a detail after the time ("[1 bug]").
func (r *reporter) pkgResult(status, pkg string, elapsed float64, detail string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.out != nil {
		pos := r.pkgs[pkg]
		r.out.record(jsonPackage{Event: "package", Package: pkg, Index: pos.index, Tests: pos.tests,
			Status: status, Detail: detail, ElapsedS: max(elapsed, 0)})
	}
	if r.json {
		return
	}
	if elapsed >= 0 {
		detail = strings.TrimSpace(seconds(elapsed) + " " + detail)
	}
	r.clear()
	if r.gojson != nil {
		r.gojson.pkgLine(status, pkg, detail)
		return
	}
	fmt.Fprintf(r.stdout, "%-4s %s\t%s\n", status, pkg, detail)
}

// buildFailed reports a package whose instrumented test binary did not
// build: the compiler's output (naming the user's files), an error, and
// the package's line.
func (r *reporter) buildFailed(pkg string, out []byte, msg string) {
	r.mu.Lock()
	if r.gojson != nil {
		r.clear()
		r.errors++
		r.gojson.buildFailed(pkg, out)
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	r.output(pkg, out)
	r.message("error", pkg, "", "", msg)
	r.pkgLine("FAIL", pkg, "[build failed]")
}

// summary prints the totals at the end.
func (r *reporter) summary() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
	elapsed, exploreS := time.Since(r.start).Seconds(), r.exploreS
	if r.shards > 0 {
		elapsed, exploreS = r.wallS, r.mergedExploreS
	}
	js := jsonSummary{Event: "summary", Schedules: r.schedules, Bugs: r.bugs, DistinctBugs: len(r.keys), TimingBugs: r.timing,
		ElapsedS: round3(elapsed), SchedulesPerS: round3(perS(r.schedules, exploreS)), ExploreS: round3(exploreS),
		Tests: r.tests, Exhausted: r.exhausted, Proved: r.proved, NotExplored: len(r.notExplored), Saturated: r.saturated, Errors: r.errors, Nondeterministic: r.nondet,
		Strategy: r.strategy, Seed: r.seed, Shard: r.shard, Shards: r.shards}
	if r.cov != nil {
		t := r.cov.totals()
		js.Coverage = &jsonCovSummary{Points: t.points, Reached: t.reached, Pairs: t.pairs, Both: t.both, Report: r.cov.file}
	}
	if r.out != nil {
		r.out.record(js)
	}
	if r.json {
		r.emit(js)
		return
	}
	w := r.stdout
	if r.gojson != nil {
		// stdout holds go test's stream, and its readers take anything
		// on stderr for errors: each test's output says what the
		// summary would (schedules, strategy, seed).
		return
	}
	fmt.Fprintf(w, "gosct: %d schedule%s of %d test%s in %s (%s schedules/s), ",
		r.schedules, plural(r.schedules), r.tests, plural(r.tests), seconds(elapsed), rate(r.schedules, exploreS))
	if r.bugs == 0 {
		fmt.Fprintf(w, "no bug")
	} else {
		fmt.Fprintf(w, "%d bug%s (%d distinct", r.bugs, plural(r.bugs), len(r.keys))
		if r.timing > 0 {
			fmt.Fprintf(w, "; %d timing-dependent", r.timing)
		}
		fmt.Fprintf(w, ")")
	}
	if r.nondet > 0 {
		fmt.Fprintf(w, ", %d nondeterministic schedule%s", r.nondet, plural(r.nondet))
	}
	fmt.Fprintf(w, "; strategy %s, seed %d", r.strategy, r.seed)
	switch {
	case r.shard != "":
		fmt.Fprintf(w, ", shard %s", r.shard)
	case r.shards > 1:
		fmt.Fprintf(w, "; %d shards merged", r.shards)
	}
	fmt.Fprintln(w)
	if r.cov != nil {
		fmt.Fprintf(w, "gosct: %s\n", r.cov.summary())
	}
	if n := len(r.notExplored); n > 0 {
		// Stopped before their limits: their few schedules prove
		// nothing, so they are not among the passed.
		list := r.notExplored
		if n > maxSearchLines {
			list = append(list[:maxSearchLines:maxSearchLines], fmt.Sprintf("and %d more", n-maxSearchLines))
		}
		fmt.Fprintf(w, "gosct: %d test%s not explored (stopped early): %s\n", n, plural(n), strings.Join(list, ", "))
	}
	if n := r.saturated; n > 0 {
		// Stopped by the saturation rule: many schedules, no bug, and
		// no proof either.
		fmt.Fprintf(w, "gosct: %d test%s stopped when %s coverage saturated (no new pair of conflicting operations in the schedules sampled since): no bug in the schedules run, not a proof\n",
			n, plural(n), pick(n == 1, "its", "their"))
	}
	if len(r.searches) > 0 && len(r.searches) <= maxSearchLines {
		// A few tests: say per test how far the search went; an
		// exhausted search without a bug is a proof within the model.
		for _, l := range r.searches {
			fmt.Fprintf(w, "gosct: %s: %s\n", l.test, l.outcome())
		}
	}
	// "completed" only for proofs: a search that ran out of schedules
	// without one (a bound, values it did not vary) is counted apart.
	if r.proved > 0 {
		fmt.Fprintf(w, "gosct: systematic search completed for %d of %d tests\n", r.proved, r.tests)
	}
	if n := r.exhausted - r.proved; n > 0 {
		fmt.Fprintf(w, "gosct: %d test%s searched to the end of %s search without a proof (bounded, or depending on what it did not explore: see %s line)\n",
			n, plural(n), pick(n == 1, "its", "their"), pick(n == 1, "its", "each"))
	}
	if r.exhausted == 0 && r.systematic && r.tests > 0 {
		fmt.Fprintf(w, "gosct: systematic search not completed (schedule or time limit reached)\n")
	}
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// maxSearchLines is how many tests the summary describes one by one.
const maxSearchLines = 10

type searchLine struct {
	pkg, test, status   string
	bugs                int
	exhausted, unproved bool
	// schedules ran; saturated is the schedule after which the
	// saturation rule saw nothing new, when it stopped the search.
	schedules, saturated int
}

// outcome reads "exhausted: 24 schedules, all passed", or says the search
// stopped before the end, or that its end is no proof (its status says
// why).
func (l searchLine) outcome() string {
	st := l.status
	if st == "" && l.exhausted && l.unproved {
		st = "searched to the end, not a proof"
	} else if st == "" && l.exhausted {
		st = "exhausted"
	} else if st == "" {
		st = "stopped"
	}
	switch {
	case l.bugs > 0:
		return fmt.Sprintf("%s; %d bug%s", st, l.bugs, plural(l.bugs))
	case l.exhausted && l.unproved:
		return st + "; no bug found"
	case l.exhausted:
		return st + ", all passed"
	case l.saturated > 0:
		return fmt.Sprintf("%s; not exhausted: %d schedules, no bug; coverage saturated after %d", st, l.schedules, l.saturated)
	}
	if strings.Contains(st, "not exhausted") {
		return st + " (schedule or time limit reached), no bug so far"
	}
	return st + "; not exhausted (schedule or time limit reached), no bug so far"
}

func perS(n int, s float64) float64 {
	if s <= 0 {
		return 0
	}
	return float64(n) / s
}

func rate(n int, s float64) string {
	if s <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", perS(n, s))
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

// replayCommand is the one line that replays trace, quoted for a POSIX shell.
func replayCommand(trace string) string {
	return "gosct replay " + shellQuote(trace)
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+@%,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
