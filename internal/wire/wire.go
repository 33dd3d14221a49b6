// Package wire is the protocol between the gosct command and an instrumented
// test binary: the command passes a Config in the environment, the binary
// appends Events, one JSON object per line, to the file the Config names.
//
// It depends on the standard library only, because it is linked into every
// instrumented test binary.
package wire

import (
	"encoding/json"
	"os"
)

// EnvConfig is the environment variable that carries the JSON Config. When it
// is unset the instrumented binary runs in pass-through mode: every hook does
// exactly what the original operation did, with no scheduling control.
const EnvConfig = "GOSCT_CONFIG"

// Config tells the runtime in a test binary what to do.
type Config struct {
	// Mode is "explore" (run each test under many schedules) or "replay"
	// (run the schedule of Trace once).
	Mode string `json:"mode"`
	// Package is the import path of the package under test, for reports.
	Package string `json:"package"`

	Strategy  string `json:"strategy"`
	Seed      int64  `json:"seed"`
	Schedules int    `json:"schedules"`
	// BudgetNS is the wall-clock budget per test function, in nanoseconds;
	// 0 means none.
	BudgetNS int64 `json:"budget_ns,omitempty"`
	Bound    int   `json:"bound,omitempty"`
	Depth    int   `json:"depth,omitempty"`
	// States makes dpor match states (--states).
	States bool `json:"states,omitempty"`
	// DFSRB is dfsrb's configuration (--dfsrb, strategies.ParseDFSRB).
	DFSRB string `json:"dfsrb,omitempty"`
	// Walk is guided search's strategies.Options.Walk (--walks).
	Walk int `json:"walk,omitempty"`
	// KeepGoing continues exploring a test after its first bug.
	KeepGoing bool `json:"keep_going,omitempty"`
	// MaxSteps bounds the scheduling steps of one execution; more is
	// reported as a livelock. 0 means the runtime's default.
	MaxSteps int `json:"max_steps,omitempty"`
	// Races selects the race mode: "" or "off", "report".
	Races string `json:"races,omitempty"`
	// UncontrolledWaitNS bounds, in nanoseconds, how long an execution
	// waits for goroutines of the test that are in uncontrolled code
	// before it ends with "could not complete"; 0 means the runtime's
	// default.
	UncontrolledWaitNS int64 `json:"uncontrolled_wait_ns,omitempty"`
	// Deps says the binary was built with dependency modules instrumented
	// (recorded in traces, so that a replay builds the same way).
	Deps bool `json:"deps,omitempty"`
	// CheckReplay runs every schedule that depended on uncontrolled code
	// a second time with the same decisions, and counts those that
	// replay (a measurement: it doubles their cost).
	CheckReplay bool `json:"check_replay,omitempty"`
	// MinimizeNS bounds, in nanoseconds, how long the schedule of each
	// new bug is shrunk before its trace is written (fewest preemptions,
	// then fewest steps, then fewest goroutines); 0: not shrunk.
	MinimizeNS int64 `json:"minimize_ns,omitempty"`
	// Guide is the guide file of guided search (package static), for
	// the strategies that steer by one.
	Guide string `json:"guide,omitempty"`
	// TimerEarly is how far ahead of the work done a timer may fire at a
	// strategy's choice, and LeakGrace how long goroutines left behind by
	// a test go on before the leak check: Go durations ("1ms", "0"); ""
	// means the runtime's default (docs/runtime.md, "Time").
	TimerEarly string `json:"timer_early,omitempty"`
	LeakGrace  string `json:"leak_grace,omitempty"`
	// StepCost, when set to a duration, is a uniform virtual time every
	// scheduling step and read of the clock costs instead of Go's
	// calibrated costs ("" or "calibrated"); for measuring the time model
	// (gosct-bench) and for traces written before the calibration.
	StepCost string `json:"step_cost,omitempty"`
	// Fragments is the fragments file of pairwise incremental
	// checking (gosct test --since).
	Fragments string `json:"fragments,omitempty"`

	// TraceDir is where traces of bugs are written.
	TraceDir string `json:"trace_dir"`
	// Trace is the trace file to replay (Mode "replay").
	Trace string `json:"trace,omitempty"`
	// Continue, in replay mode, keeps exploring from a diverged point.
	Continue bool `json:"continue,omitempty"`

	// Results is the file Events are appended to.
	Results string `json:"results"`

	// State, when set, is the directory of saved states (see State): each
	// test function resumes the search saved there and saves it again,
	// periodically and when its exploration ends. Schedules and BudgetNS
	// then count from the resumed point.
	State string `json:"state,omitempty"`
	// Module is the path of the module holding Package, recorded in
	// traces so that they locate the package in any checkout.
	Module string `json:"module,omitempty"`
	// Files is a JSON file mapping each instrumented file of the package
	// (by its path relative to the module root) to a hash of its content:
	// traces record it, and a replay names the files changed since.
	Files string `json:"files,omitempty"`
	// CheckDeterminism runs every schedule twice, the second time as a
	// replay of the first, and reports the first difference
	// ("nondeterministic" events).
	CheckDeterminism bool `json:"check_determinism,omitempty"`
	// Free turns controls of sources of nondeterminism off ("rand",
	// "maps", "time", "goroutines", "crypto"): those sources then behave
	// as under go test. For testing the determinism check.
	Free []string `json:"free,omitempty"`

	// Coverage records what the exploration reached: each test function
	// ends with a "coverage" event (Event.Coverage) before its "test"
	// event.
	Coverage bool `json:"coverage,omitempty"`

	// PerProcess marks a run of one schedule in a fresh process, one of
	// many the command chains through State: the execution records its
	// details itself, as a re-run in the same process could not repeat it.
	PerProcess bool `json:"per_process,omitempty"`

	// Shard and Shards, when Shards > 1, make this run part Shard
	// (1-based) of a search divided into Shards parts (gosct test
	// --shard): a strategy whose schedules are numbered (strategies.Seeker)
	// runs its range of the numbers 1..Total (ShardRange), a systematic
	// search its part of the tree (strategies.Sharder).
	Shard  int `json:"shard,omitempty"`
	Shards int `json:"shards,omitempty"`
	// Total is the number of schedules of the whole search that the
	// ranges divide; 0 means Schedules. (It differs from Schedules in
	// per-process mode, where every process runs one.)
	Total int `json:"total,omitempty"`

	// RunBudgetNS is what is left of the whole run's exploration budget
	// (gosct test --run-budget) when this binary starts, RunTests the
	// test functions the run has left to explore, this binary's among
	// them: each test function takes an equal share of what is left when
	// it starts (at least MinRunShare), so that the time one does not use
	// goes to those after it. 0: no run budget.
	RunBudgetNS int64 `json:"run_budget_ns,omitempty"`
	RunTests    int   `json:"run_tests,omitempty"`

	// Saturate applies the saturation rule (saturation.go): a test
	// whose sampled schedules have stopped reaching new pairs of
	// conflicting operations stops before Schedules. The command sets it
	// for a default run (no --schedules).
	Saturate bool `json:"saturate,omitempty"`
}

// Sharded reports whether the run is one part of a divided search.
func (c *Config) Sharded() bool { return c.Shards > 1 }

// ShardRange is the range of schedule numbers first+1..end that part
// shard (1-based) of shards runs of a search of total schedules: the
// numbers are divided into contiguous ranges whose sizes differ by one at
// most.
func ShardRange(total, shard, shards int) (first, end int) {
	if shards < 1 || shard < 1 || shard > shards {
		return 0, total
	}
	return int(int64(total) * int64(shard-1) / int64(shards)), int(int64(total) * int64(shard) / int64(shards))
}

// Event is one line of the results file.
type Event struct {
	// Event is "bug", "test" (a test function's exploration finished),
	// "coverage" (what it reached, before its "test" event), "progress", "diverged" (replay), "nondeterministic" (the
	// determinism check found two runs of a schedule that differ),
	// "known" (a schedule ended in a bug an earlier process of the
	// search reported: its Key), "warning", "error" (the test could not
	// be explored, e.g. a saved state of other options).
	Event   string `json:"event"`
	Package string `json:"package,omitempty"`
	Test    string `json:"test,omitempty"`
	// Kind of bug: deadlock, leak, panic, failure, race, livelock.
	Kind     string `json:"kind,omitempty"`
	Schedule int    `json:"schedule,omitempty"`
	Strategy string `json:"strategy,omitempty"`
	Trace    string `json:"trace,omitempty"`
	// Message explains a bug, warning or error; in a "test" event, why
	// the exploration stopped before its limits ("interrupted",
	// "skipped", "too long"), if it did.
	Message string `json:"message,omitempty"`
	// Report is the full human-readable report of a bug: goroutines,
	// interleaving table, stacks.
	Report string `json:"report,omitempty"`
	// Key identifies a bug for deduplication: kind and sites.
	Key string `json:"key,omitempty"`
	// Pos is the user location a bug report points at, "file:line" with
	// an absolute file (the blocked operation of a deadlock, the racing
	// access, the panic site, the call that failed the test); the
	// report's first line starts with it.
	Pos string `json:"pos,omitempty"`
	// Source is the kind of source of nondeterminism a "diverged" or
	// "nondeterministic" event names as the likely cause ("rand", "map
	// order", "file changed", ...), "" when unknown.
	Source string `json:"source,omitempty"`

	// For "test" events.
	Schedules int     `json:"schedules,omitempty"`
	Bugs      int     `json:"bugs,omitempty"`
	ElapsedS  float64 `json:"elapsed_s,omitempty"`
	Exhausted bool    `json:"exhausted,omitempty"`
	Status    string  `json:"status,omitempty"`
	// Unproved: the search was exhausted, but it is not a proof: the
	// strategy says it may have left schedules out (a bound, a
	// divergence, a matched state), or an execution depended on what no
	// decision chose (uncontrolled code, the fair scheduler's steps, a
	// value drawn from the seed). NotProof says why, in the user's words.
	Unproved   bool   `json:"unproved,omitempty"`
	NotProof   string `json:"not_proof,omitempty"`
	Controlled bool   `json:"controlled,omitempty"`
	// Uncontrolled counts the schedules that depended on uncontrolled
	// code (a goroutine detached or adopted: they may not replay
	// exactly); with Config.CheckReplay, UncontrolledReplayed counts
	// those of them that took the same decisions when run again.
	Uncontrolled         int `json:"uncontrolled,omitempty"`
	UncontrolledReplayed int `json:"uncontrolled_replayed,omitempty"`
	// Resumed is the number of schedules explored by earlier runs of a
	// saved search that this run resumed; Schedules counts this run's.
	Resumed int `json:"resumed,omitempty"`
	// Probes, in a part of a sharded systematic search, counts the
	// executions it ran outside its part to learn the shape of the tree
	// (strategies.Sharder): not schedules of this part, the part that
	// owns them runs and reports them.
	Probes int `json:"probes,omitempty"`
	// Saturated, in a "test" event, is the schedule after which the
	// test's sampled coverage reached nothing new, when the saturation
	// rule stopped it (Config.Saturate): its Schedules ran, no proof.
	Saturated int `json:"saturated,omitempty"`
	// Replayed, for a "bug" found in replay mode, says the trace's bug
	// happened again.
	Replayed bool `json:"replayed,omitempty"`

	// Coverage, for a "coverage" event, is what the test function's
	// schedules of this run reached (Config.Coverage).
	Coverage *Coverage `json:"coverage,omitempty"`
	// Timing, for a "bug" whose schedule fires a timer early (a goroutine
	// that could run waits while the clock moves: a stall Go shows on a
	// loaded machine), is what it needs in the user's terms ("needs the
	// goroutine started at cache.go:412 to wait 1ms while the test slept
	// at cache_test.go:1380"); "" for a bug of the interleaving alone.
	Timing string `json:"timing,omitempty"`
	// Size and From, for a "bug": the size of the schedule its trace
	// holds and, when it was shrunk, of the schedule the strategy found.
	Size *Size `json:"size,omitempty"`
	From *Size `json:"from,omitempty"`
}

// Load reads the Config from the environment; nil when unset.
func Load() (*Config, error) {
	s := os.Getenv(EnvConfig)
	if s == "" {
		return nil, nil
	}
	var c Config
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// Append writes e as one line to the results file.
func Append(path string, e *Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Size measures a bug's schedule (replay.Size): its decisions, the
// preemptions among them, the goroutines that ran.
type Size struct {
	Steps        int   `json:"steps"`
	Preemptions  int   `json:"preemptions"`
	Goroutines   int   `json:"goroutines"`
	EarlyFirings int   `json:"early_firings,omitempty"`
	EarlyNS      int64 `json:"early_ns,omitempty"`
}
