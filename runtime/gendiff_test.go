package runtime

import (
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// The differential check of dpor against dfs on generated programs
// (gen_test.go): for each program that dfs exhausts, the outcomes dpor
// reaches (bug kind and where, final values, what each goroutine
// observed) must be exactly dfs's, and dpor must exhaust it too; the same
// of dpor --states, whose state signature must tell apart states that
// differ in what a goroutine learnt. CI runs 500 programs (50 with
// -short, none under -race); -gendiff N runs N (docs/strategies.md
// records the latest long run):
//
//	go test ./runtime -run TestGeneratedDPORMatchesDFS -gendiff 20000 -timeout 6h
//
// A disagreement is shrunk to a small program, printed as the Go
// expression that makes it, to be kept in genFixtures.

var (
	genDiffN     = flag.Int("gendiff", 0, "generated programs for TestGeneratedDPORMatchesDFS (0: the CI count)")
	genDiffSeed  = flag.Int64("gendiff.seed", 1, "seed of the first generated program")
	genDiffLimit = flag.Int("gendiff.limit", 2000, "dfs schedules after which a generated program is skipped")
)

// genCI is how many programs CI checks.
const genCI = 500

// genRun is what one search reached on a program.
type genRun struct {
	outcomes  map[string]bool
	schedules int
	exhausted bool
	proved    bool
	status    string
}

// runGen explores p under strategy (with states: dpor --states) for at
// most limit schedules. The executions run quietly, each as a goroutine of
// the calling test (no subtest per execution: a long check runs millions).
func runGen(t *testing.T, p *gProg, strategy string, states bool, limit int) genRun {
	t.Helper()
	c := &wire.Config{Mode: "explore", Strategy: strategy, States: states, Schedules: limit, Seed: 1}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.set.noStallCharge = true
	x.set.quiet = true
	// A goroutine waiting on ctx.Done() (Go's channel, polled) is
	// deadlocked once pollGrace passed; only goroutines of the
	// execution cancel, and a cancel wakes the waiters itself.
	x.set.pollGrace = time.Millisecond
	startWatchdog()
	r := genRun{outcomes: map[string]bool{}}
	for r.schedules < limit {
		if !x.strat.NewExecution() {
			r.exhausted = true
			break
		}
		x.schedules++
		r.schedules++
		st := newGState(p)
		st.publish = states
		e := runQuiet(t, x.strat, x.set, x.inputs(), st.run)
		r.outcomes[st.outcome(e)] = true
	}
	if s, ok := x.strat.(strategies.Status); ok {
		r.status = s.Status()
		r.exhausted = r.exhausted || s.Exhausted()
	}
	if pr, ok := x.strat.(strategies.Prover); ok {
		r.proved = pr.Proved()
	}
	return r
}

// runQuiet runs one execution of body under s as a goroutine of t's, as
// the explorer's runOnce does in a subtest.
func runQuiet(t *testing.T, s strategies.Strategy, set settings, in inputs, body func(*testing.T)) *execution {
	e := newExecution(s, set, nil)
	e.in.set(in, e.set.free, &e.clock)
	e.t = t
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.runTest(t, body)
	}()
	select {
	case <-done:
	case <-e.abandon:
		e.abandonMain()
	}
	return e
}

// genCompare checks dpor, and dpor --states, against dfs on p. It returns
// "" when they agree (or dfs did not exhaust p within limit: compared is
// false), else what differs.
func genCompare(t *testing.T, p *gProg, limit int) (diff string, compared bool, dfs, dp, ds genRun) {
	t.Helper()
	dfs = runGen(t, p, "dfs", false, limit)
	if !dfs.exhausted {
		return "", false, dfs, dp, ds
	}
	var b strings.Builder
	diffOf := func(name string, r genRun) {
		var missed, extra []string
		for o := range dfs.outcomes {
			if !r.outcomes[o] {
				missed = append(missed, o)
			}
		}
		for o := range r.outcomes {
			if !dfs.outcomes[o] {
				extra = append(extra, o)
			}
		}
		sort.Strings(missed)
		sort.Strings(extra)
		if !r.exhausted {
			fmt.Fprintf(&b, "%s did not exhaust it in %d schedules (dfs: %d); ", name, r.schedules, dfs.schedules)
		}
		if len(missed) > 0 {
			fmt.Fprintf(&b, "%s (%s) missed %q; ", name, r.status, missed)
		}
		if len(extra) > 0 {
			fmt.Fprintf(&b, "%s reached what dfs did not: %q; ", name, extra)
		}
	}
	dp = runGen(t, p, "dpor", false, 2*dfs.schedules+100)
	diffOf("dpor", dp)
	// The states run has one more step per goroutine (publishLog),
	// which dpor does not always find independent (the step that
	// reaches a yield is global): program 21096 took 255 schedules
	// with it, 32 without, dfs 52 without. Its bound is wider.
	ds = runGen(t, p, "dpor", true, 10*(2*dfs.schedules+100))
	diffOf("dpor --states", ds)
	return b.String(), true, dfs, dp, ds
}

// genShrink makes p smaller while it still fails: statements dropped,
// compound statements replaced by their bodies, select cases dropped,
// channel capacities lowered, until no such change keeps the failure.
func genShrink(p *gProg, fails func(*gProg) bool) *gProg {
	for {
		smaller := false
		for _, q := range genCandidates(p) {
			if fails(q) {
				p, smaller = q, true
				break
			}
		}
		if !smaller {
			return p
		}
	}
}

// genCandidates lists the programs one step smaller than p.
func genCandidates(p *gProg) []*gProg {
	var out []*gProg
	n := p.size()
	for k := 1; k <= n; k++ {
		for _, how := range []int{0, 1} {
			q := p.clone()
			if q.edit(k, how) {
				q.number()
				out = append(out, q)
			}
		}
	}
	for i, c := range p.caps {
		if c > 0 {
			q := p.clone()
			q.caps[i] = c - 1
			out = append(out, q)
		}
	}
	return out
}

// edit changes statement k of q: how 0 drops it, 1 replaces it by its
// body (or a select by its cases but the first). It reports whether it
// changed anything.
func (q *gProg) edit(k, how int) bool {
	changed := false
	var walk func(b []gStmt) []gStmt
	walk = func(b []gStmt) []gStmt {
		for i := 0; i < len(b); i++ {
			s := &b[i]
			if s.id != k {
				s.cases = walk(s.cases)
				s.body = walk(s.body)
				continue
			}
			switch {
			case how == 0:
				changed = true
				return append(b[:i:i], b[i+1:]...)
			case s.op == genSelect && len(s.cases) > 1:
				changed = true
				s.cases = s.cases[1:]
			case len(s.body) > 0 && s.op != genSelect:
				changed = true
				return append(append(b[:i:i], s.body...), b[i+1:]...)
			}
			return b
		}
		return b
	}
	q.main = walk(q.main)
	return changed
}

// skipUnderRace skips a test under -race whose program races on purpose
// (the generated check's plain variables and sends beside a close, a
// victim's unsynchronized flag): Go's detector sees a program's races
// under gosct, as it would under go test, and fails the test for them.
// These tests run in the plain test run.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("the program under test races on purpose; Go's race detector would report it")
	}
}

func TestGeneratedDPORMatchesDFS(t *testing.T) {
	skipUnderRace(t)
	n := *genDiffN
	if n == 0 {
		n = genCI
		if testing.Short() {
			n = genCI / 10
		}
	}
	start := time.Now()
	ran, compared, skipped, dfsRuns, dporRuns, statesRuns, failed := 0, 0, 0, 0, 0, 0, 0
	defer func() {
		t.Logf("%d generated programs (seeds %d..%d) in %v: %d compared, dfs %d schedules, dpor %d, dpor --states %d; %d skipped (dfs did not exhaust them within %d schedules); %d disagreements",
			ran, *genDiffSeed, *genDiffSeed+int64(ran)-1, time.Since(start).Round(time.Second), compared, dfsRuns, dporRuns, statesRuns, skipped, *genDiffLimit, failed)
	}()
	for i := 0; i < n; i++ {
		if i > 0 && i%1000 == 0 && n > genCI {
			// A long run says how far it got (go test -v streams it).
			t.Logf("%d programs in %v, %d compared, %d disagreements", i, time.Since(start).Round(time.Second), compared, failed)
		}
		ran++
		seed := *genDiffSeed + int64(i)
		p := genProgram(rand.New(rand.NewSource(seed)))
		diff, ok, dfs, dp, ds := genCompare(t, p, *genDiffLimit)
		if !ok {
			skipped++
			continue
		}
		compared++
		dfsRuns += dfs.schedules
		dporRuns += dp.schedules
		statesRuns += ds.schedules
		if diff == "" {
			continue
		}
		failed++
		small := genShrink(p, func(q *gProg) bool {
			d, ok, _, _, _ := genCompare(t, q, *genDiffLimit)
			return ok && d != ""
		})
		d, _, _, _, _ := genCompare(t, small, *genDiffLimit)
		t.Errorf("program of seed %d: %s\n\tshrunk to %d statements: %s\n\t%s", seed, diff, small.size(), small, d)
		if failed >= 3 {
			t.Fatalf("stopping after %d disagreements", failed)
		}
	}
}

// genFixtures are the disagreements the generated check found, shrunk,
// and programs of the shapes dpor once proved wrongly: dpor must reach
// exactly dfs's outcomes on each. Each failed before the change its
// comment names.
var genFixtures = map[string]*gProg{
	// A Done panicking on a negative counter ended the execution
	// before the goroutine's Add had run: the panic disables every
	// other goroutine (strategies.End.Cut, cutWhereEnabled).
	"panic hides a pending Add":  xprog(nil, xgo(xadd(0, 2)), xdone(0)),
	"panic hides a pending Done": xprog(nil, xadd(0, 1), xgo(xdone(0), xdone(0)), xwait(0), xadd(0, 2)),
	// The step forced at the goroutine's Gosched may be a local one of
	// the test goroutine's (the rest of its go statement): the step
	// reaching the yield is ordered after local steps too (stepYields).
	"yield forces a local step": xprog([]int{1}, xgo(xgosched(), xclose(0)), xsend(0, 1)),
	// A writer locking the RWMutex it holds closes a lock cycle at
	// once, a deadlock while the test goroutine may still return: the
	// attempt is no mere queueing (onlyQueues).
	"self lock before the test returns": xprog([]int{0}, xgo(xwlock(0, xwlock(0)))),
	// The same cycle found in a step while a timer's goroutine could
	// still run (End.Cut for every bug found in a step).
	"read lock under the write lock beside a timer": xprog([]int{0, 0}, xwlock(0, xafterfunc(0, 0, xonce(0)), xrlock(0))),
	// A firing the clock could not take where a write was (no timer
	// yet) is reversed through the step that starts the timer: run
	// first, it makes the timer due before the write.
	"sleeper reads before a goroutine's write": xprog([]int{0}, xgo(xsleep(1), xr(1)), xw(1, 1)),
	// A bug ends the execution wherever the others stand, a goroutine
	// at the point after its go statement (a local step) too.
	"cycle while a goroutine stands after its go": xprog([]int{0, 0}, xtrywlock(0, xgo(xgo()), xrlock(0))),
	// Which step is forced at a yield is a choice: the callback's
	// goroutine yields, then reads the timer's handle, which the test
	// goroutine writes after AfterFunc returns.
	"step forced at a yield": xprog([]int{0, 0}, xafterfunc(0, 0, xgo(xgosched(), xstop(0)))),
	// The same under a write lock: the test goroutine's step at the
	// yield is its store of the handle, the other candidate (the rest
	// of the callback's go statement) comes after the yielder's next
	// step, so the race's sequence holds no step to try there instead.
	"step forced at a yield, no other in the race": xprog([]int{0, 0}, xtrywlock(0, xafterfunc(0, 0, xgo(xgosched(), xstop(0))))),
	// dpor --states: a goroutine loads a variable into a local and
	// stores it later; two schedules bring the variable to one value by
	// different reads. Without what the goroutine learnt in the state
	// signature, they matched and an outcome was lost.
	"a local decides what comes next": xprog(nil, xgo(xld(0), xst(1, 0), xst(1, 1)), xgo(xr(1), xr(1)), xw(0, 1), xw(0, 0)),
	// dpor --states and the checker's own (found at program 20412): a
	// goroutine that ended after choosing a select case left that
	// choice only in the interpreter's log, memory no hook touched, so
	// the states after either choice matched and the outcomes that
	// combine it with the timer's later choice were lost. A goroutine
	// now stores what it observed through a hook when it ends
	// (publishLog), as a program hands over its results.
	"an ended goroutine's observations": xprog([]int{0}, xadd(0, 1), xgo(xclose(0), xselect(false, xrecv(0), xrecv(0)), xdone(0)), xwait(0),
		xafterfunc(0, 1, xselect(false, xsend(0, 1), xrecv(0)))),
	// The checker's own (program 21096): with publishLog's extra steps
	// dpor --states needs more schedules than dfs needs without them;
	// its run's bound is wider than the plain dpor run's.
	"publishing beside yields in a timer's callback": xprog([]int{0, 0}, xafterfunc(0, 1, xgo(xgosched()), xrlock(0, xgosched()))),
	// The checker's own: the timer handle the callback replaces is read
	// and written through the hooks, as the rewriter writes them.
	"timer handle replaced by its callback": xprog([]int{0, 0}, xafterfunc(0, 1, xw(0, 1), xafterfunc(0, 1)), xselect(true), xstop(0)),
	// Issue 29's gate, in the language: two starts after a Gosched,
	// each counted by a WaitGroup until its goroutine has begun.
	"yield gate": xprog([]int{2, 1},
		xgosched(),
		xseq(xadd(0, 1), xgo(xdone(0), xselect(true, xsend(0, 1)), xsend(1, 1)), xwait(0)),
		xgosched(),
		xgo(xselect(true, xsend(0, 2)), xsend(1, 2)),
		xrecv(1),
	),
}

func TestGeneratedFixturesDPORMatchesDFS(t *testing.T) {
	skipUnderRace(t)
	var names []string
	for name := range genFixtures {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p := genFixtures[name].clone()
			diff, ok, dfs, dp, ds := genCompare(t, p, 20000)
			if !ok {
				t.Fatalf("dfs did not exhaust the fixture in 20000 schedules")
			}
			if diff != "" {
				t.Errorf("%s\n\t%s", diff, p)
			}
			t.Logf("dfs %d schedules, dpor %d, dpor --states %d, %d outcomes", dfs.schedules, dp.schedules, ds.schedules, len(dfs.outcomes))
		})
	}
}
