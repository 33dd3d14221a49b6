// Package replay defines gosct's trace format and replays traces.
//
// A Trace is self-describing, versioned JSON: what was run (package, test,
// strategy, seed, schedule index), every decision taken, what the
// execution drew from the sources of nondeterminism the runtime controls
// (Inputs), what it observed of the others (Sources), a hash of every
// instrumented file, and the bug. The runtime records the decisions of
// every execution (its trail) and writes a trace for every bug it finds
// (Write is atomic: a temporary file renamed into place). A Replayer is the
// strategies.Strategy that takes recorded decisions again, for `gosct
// replay`, for the runtime's own re-run of a buggy schedule and for the
// determinism check, and says where a program stopped following them.
//
// It depends on the standard library and strategies only, because it is
// linked into every instrumented test binary.
package replay

import (
	"strconv"
	"time"
)

// Format is the version of the trace format written by this package.
// Format 2 added Inputs, Sources, Files, Module and the decision kind
// "value"; a format 1 trace still replays (its inputs are then unknown).
// Fields added later that an older reader may ignore keep the number; a
// change an older gosct would misread bumps it.
const Format = 2

// Trace is one buggy schedule.
type Trace struct {
	Format  int    `json:"format"`
	Gosct   string `json:"gosct"`
	Go      string `json:"go"`
	Package string `json:"package"`
	// Dir is the package's directory on the machine that wrote the trace,
	// when known: `gosct replay` rebuilds from there if it still holds the
	// package, so a trace replays from any working directory.
	Dir string `json:"dir,omitempty"`
	// Module is the path of the module holding the package: with the
	// import path it locates the package in any checkout of the module,
	// so no absolute path is needed to replay.
	Module string `json:"module,omitempty"`
	Test   string `json:"test"`
	// Strategy that found the schedule, with its parameters and seed.
	Strategy string         `json:"strategy"`
	Params   map[string]any `json:"params,omitempty"`
	Seed     int64          `json:"seed"`
	// Schedule is the 1-based index of the execution that found the bug.
	Schedule  int        `json:"schedule"`
	Decisions []Decision `json:"decisions"`
	Bug       *Bug       `json:"bug,omitempty"`
	// Uncontrolled is set when the execution depended on something the
	// runtime does not control (a goroutine detached by the watchdog, a
	// channel fed by uninstrumented code): the schedule may not replay
	// exactly.
	Uncontrolled bool `json:"uncontrolled,omitempty"`
	// Inputs are the execution's draws from the sources the runtime
	// controls; a replay draws the same.
	Inputs *Inputs `json:"inputs,omitempty"`
	// Sources are the execution's reads of sources of nondeterminism, in
	// order (at most MaxSources): controlled ones (a large random draw, a
	// map's iteration order) and those the runtime only sees (an
	// environment variable, a file, a channel fed by uncontrolled code).
	// A replay that diverges compares its own with them to name the
	// likely cause.
	Sources []Source `json:"sources,omitempty"`
	// Files maps each instrumented file of the package, by its path
	// relative to the module root, to a hash of its content when the trace
	// was written: a replay names the files changed since.
	Files map[string]string `json:"files,omitempty"`

	// Steps are the schedule as people read it (the report's interleaving
	// table, `gosct replay --step`, `gosct view`), recorded by the detailed
	// run that wrote the trace: what each goroutine did, in order.
	// Decisions are the schedule as the runtime replays it; the two are
	// kept apart because a decision is a choice between goroutines, not
	// an operation (see Step).
	Steps []Step `json:"steps,omitempty"`
	// Stacks are the user stacks Steps refer to (Step.Stack), each kept
	// once: "pkg.F(...)\n\tfile.go:12\n" lines, innermost first.
	Stacks []string `json:"stacks,omitempty"`
	// Goroutines are every goroutine of the execution, by id (the
	// timeline's lanes): where each was created and how it ended.
	Goroutines []Goroutine `json:"goroutines,omitempty"`
	// Minimized says how far the schedule was shrunk from the one the
	// strategy found (nil: it was not).
	Minimized *Minimized `json:"minimized,omitempty"`
}

// Step is one thing a goroutine did in the recorded execution. The
// decision numbered Decision (1-based, into Trace.Decisions) let goroutine
// G run: G performs the operation it was stopped at (Op, Pos) and runs on
// to its next scheduling point. Things G does on the way that are not
// decisions of their own are steps with the same Decision: a go statement
// (Op "go", Child the new goroutine: the scheduling point of a go
// statement comes after it, so that the new goroutine may run first), its
// return (Op "exit"). Decision 0 is what the test goroutine did before the
// first decision. A step whose operation could not complete (a lock held,
// an empty channel) has Blocked set to what it waits on; the goroutine's
// next step is the same operation, resumed once another goroutine made it
// possible. Steps are in the order they happened: a goroutine starts
// after the go statement that created it, a lock is taken after its
// holder's unlock.
type Step struct {
	Decision int    `json:"decision"`
	G        int    `json:"g"`
	Op       string `json:"op"`
	Pos      string `json:"pos,omitempty"`
	// Obj numbers the object the operation acted on (a mutex, a channel,
	// a WaitGroup...), in order of first use in the execution; 0 when
	// none or unknown.
	Obj     int    `json:"obj,omitempty"`
	Blocked string `json:"blocked,omitempty"`
	Child   int    `json:"child,omitempty"`
	// Early marks the clock's step that fires a timer early, while
	// goroutines could run (G is -1): what a timing-dependent bug needs.
	Early bool `json:"early,omitempty"`
	// Stack is 1 + the index in Trace.Stacks of G's stack at the step;
	// 0 when not recorded.
	Stack int `json:"stack,omitempty"`
}

// Size measures a schedule: its decisions, the preemptions among them (a
// switch away from a goroutine that could have gone on, other than at a
// yield), and the goroutines that ran at least one step; and the timers
// it fired early (a goroutine that could run waited while the clock
// moved to their deadline), with the time they made goroutines wait.
type Size struct {
	Steps        int   `json:"steps"`
	Preemptions  int   `json:"preemptions"`
	Goroutines   int   `json:"goroutines"`
	EarlyFirings int   `json:"early_firings,omitempty"`
	EarlyNS      int64 `json:"early_ns,omitempty"`
}

// String is "34 steps, 2 preemptions, 3 goroutines", and ", 1 timer
// fired early (1ms)" when it fires some.
func (s Size) String() string {
	out := plural(s.Steps, "step") + ", " + plural(s.Preemptions, "preemption") + ", " + plural(s.Goroutines, "goroutine")
	if s.EarlyFirings > 0 {
		out += ", " + plural(s.EarlyFirings, "timer") + " fired early (" + RoundDuration(time.Duration(s.EarlyNS)).String() + ")"
	}
	return out
}

// RoundDuration rounds d to three significant digits, as reports show
// durations.
func RoundDuration(d time.Duration) time.Duration {
	for r := time.Duration(1); r < time.Hour; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
	return d.Round(time.Second)
}

func plural(n int, what string) string {
	s := strconv.Itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}

// Minimized is how a trace's schedule was shrunk: From is the schedule the
// strategy found, To the one the trace holds, which ends in the same bug
// (same kind, same place). Runs is how many executions the shrinking
// took; Complete is set when no single change tried could shrink it
// further, unset when the time allowed ran out first.
type Minimized struct {
	From     Size    `json:"from"`
	To       Size    `json:"to"`
	Runs     int     `json:"runs"`
	ElapsedS float64 `json:"elapsed_s"`
	Complete bool    `json:"complete,omitempty"`
}

// Inputs are what an execution drew from the sources of nondeterminism the
// runtime controls (docs/runtime.md, "What is controlled").
type Inputs struct {
	// Seed seeds the execution's random source: math/rand draws that are
	// not decisions, map iteration orders, crypto/rand.
	Seed uint64 `json:"seed"`
	// Epoch is time.Now at the execution's start, in Unix nanoseconds:
	// the origin of its virtual clock.
	Epoch int64 `json:"epoch"`
	// Goroutines is runtime.NumGoroutine at the execution's start; the
	// runtime adds the execution's live goroutines to it.
	Goroutines int `json:"goroutines,omitempty"`
	// Free names the controls that were turned off ("rand", "maps",
	// "time", "goroutines", "crypto"), for testing the determinism check:
	// those sources drew as Go draws them, and a replay leaves them off.
	Free []string `json:"free,omitempty"`
	// Onces are the positions (file:line) of the sync.Once Do calls whose
	// Once an earlier execution of the recording process had done: a
	// replay in a fresh process runs their functions first, outside the
	// schedule, so that it starts from the same state.
	Onces []string `json:"onces,omitempty"`
}

// MaxSources bounds Trace.Sources: the first ones are where a divergence
// starts.
const MaxSources = 1000

// Source is one read of a source of nondeterminism.
type Source struct {
	// Kind is what was read: "rand" (a draw that is not a decision), "map
	// order", "time", "goroutines" (runtime.NumGoroutine), "crypto/rand",
	// "env", "file", "uncontrolled channel", "uncontrolled code",
	// "unordered map" (a map whose keys have no order the runtime can
	// reproduce).
	Kind string `json:"kind"`
	// What names the call or object: "rand.Float64", "os.Getenv(HOME)".
	What string `json:"what,omitempty"`
	// Pos is where in the user's code.
	Pos string `json:"pos,omitempty"`
	// Step is the number of decisions taken before the read.
	Step int `json:"step"`
	// Value is a hash of what was read (never the value itself: an
	// environment variable may hold a secret), "" when nothing can be
	// compared.
	Value string `json:"value,omitempty"`
	// Controlled is set when the runtime decided the value (a replay
	// draws it again), unset when it only observed it.
	Controlled bool `json:"controlled,omitempty"`
}

// Decision is one scheduling decision.
type Decision struct {
	// Kind is "goroutine", "case" or "value" (strategies.Kind.String()).
	Kind string `json:"kind"`
	// Choice is what was chosen: a logical goroutine id, a select case
	// index, or a value. A goroutine decision whose Choice is
	// strategies.Clock (-2) fired a timer; a case decision whose G is
	// strategies.Clock chose which of several timers due at the same
	// instant fires first.
	Choice int `json:"choice"`
	// G is the logical id of the goroutine that reached the point (-1 for
	// the runtime's own decisions, when no goroutine holds the token).
	G int `json:"g"`
	// Op and Pos describe the chosen goroutine's pending operation
	// ("chan send", "queue.go:41"; strategies.Op), when recorded.
	Op  string `json:"op,omitempty"`
	Pos string `json:"pos,omitempty"`
	// ChargedNS is the real time spent in uncontrolled code that moved
	// the virtual clock just before this decision, in nanoseconds; a replay
	// moves the clock by the same amount there.
	ChargedNS int64 `json:"charged_ns,omitempty"`
	// Enabled lists the choices that were available (goroutine ids, and
	// strategies.Clock when a timer could fire), as the detailed run
	// that wrote the trace saw them; gosct confirm tells from them where
	// the schedule departed from its non-preemptive default.
	Enabled []int `json:"enabled,omitempty"`
}

// Bug is what went wrong at the end of the schedule.
type Bug struct {
	// Kind is deadlock, leak, panic, failure, race or livelock.
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Report is the full human-readable report.
	Report string `json:"report,omitempty"`
	// Timing, for a timing-dependent bug (one whose schedule fires a
	// timer early), is what it needs: "needs the goroutine started at
	// cache.go:412 to wait 1ms while the test slept at
	// cache_test.go:1380".
	Timing     string      `json:"timing,omitempty"`
	Goroutines []Goroutine `json:"goroutines,omitempty"`
}

// Goroutine describes one goroutine at the time of the bug.
type Goroutine struct {
	ID        int    `json:"id"`
	Created   string `json:"created,omitempty"` // creation site file:line
	State     string `json:"state"`             // running, blocked, exited
	WaitingOn string `json:"waiting_on,omitempty"`
	Stack     string `json:"stack,omitempty"`
}
