package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// A results directory (gosct test --results DIR) is what a run leaves for
// gosct merge, in DIR/shard-I-of-N (shard-1-of-1 for a run that is not
// divided), so that the machines of one search can share DIR (a volume)
// or each upload their own (CI artifacts):
//
//	run.json       the run: gosct's version, the shard, the options that
//	               decide which schedules run, where traces and states went
//	events.json    the run's --json objects, one per line, and its package
//	               lines ("event":"package"); each run appends after a
//	               "run" line, and a run that does not resume a saved
//	               search (--state) starts the file anew
//	progress.json  rewritten every second while the run goes on, done at
//	               its end: what gosct merge --watch shows
//	traces/        the traces, unless --trace-dir says otherwise
const (
	resultsFormat = 1
	runFile       = "run.json"
	eventsFile    = "events.json"
	progressFile  = "progress.json"
)

// runInfo is run.json.
type runInfo struct {
	Format int    `json:"format"`
	Gosct  string `json:"gosct"`
	Shard  int    `json:"shard"`
	Shards int    `json:"shards"`
	// By is what the shards divide: "tests" or "schedules" ("" in a run
	// of one shard, and until the packages are loaded).
	By        string   `json:"by,omitempty"`
	Strategy  string   `json:"strategy"`
	Seed      int64    `json:"seed"`
	Schedules int      `json:"schedules"`
	BudgetS   float64  `json:"budget_s"`
	Bound     int      `json:"bound,omitempty"`
	Depth     int      `json:"depth,omitempty"`
	Races     string   `json:"races,omitempty"`
	KeepGoing bool     `json:"keep_going,omitempty"`
	MaxSteps  int      `json:"max_steps,omitempty"`
	Run       string   `json:"run,omitempty"`
	Packages  []string `json:"packages"`
	Dir       string   `json:"dir"`
	// TraceDir is where this run wrote its traces (absolute, on the
	// machine that ran it); State its saved searches, if any.
	TraceDir string    `json:"trace_dir"`
	State    string    `json:"state,omitempty"`
	Host     string    `json:"host,omitempty"`
	Started  time.Time `json:"started"`
}

// search is what must agree between the shards of one search.
func (r *runInfo) search() string {
	return fmt.Sprintf("gosct %s, %d shards by %s, strategy %s, seed %d, %d schedules, bound %d, depth %d, races %s, keep-going %v, max-steps %d, run %q, packages %q",
		r.Gosct, r.Shards, r.By, r.Strategy, r.Seed, r.Schedules, r.Bound, r.Depth, racesOrOff(r.Races), r.KeepGoing, r.MaxSteps, r.Run, r.Packages)
}

func racesOrOff(r string) string {
	if r == "" {
		return "off"
	}
	return r
}

// shardProgress is progress.json.
type shardProgress struct {
	Format  int       `json:"format"`
	Shard   int       `json:"shard"`
	Shards  int       `json:"shards"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	Done    bool      `json:"done"`
	// Tests is the number of test functions this shard explores (0 until
	// known), TestsDone how many it finished.
	Tests     int `json:"tests"`
	TestsDone int `json:"tests_done"`
	// Schedules explored so far, the current test's included.
	Schedules int    `json:"schedules"`
	Bugs      int    `json:"bugs"`
	Errors    int    `json:"errors"`
	Package   string `json:"package,omitempty"`
	Test      string `json:"test,omitempty"`
	// current is the schedules of the test in progress.
	current int
}

// jsonPackage is a package line in events.json.
type jsonPackage struct {
	Event   string `json:"event"` // "package"
	Package string `json:"package"`
	// Index is the package's position among the run's packages, and
	// Tests its selected test functions in order (all of them, not only
	// this shard's): gosct merge prints in that order.
	Index    int      `json:"index"`
	Tests    []string `json:"tests,omitempty"`
	Status   string   `json:"status"` // "ok", "FAIL", "?"
	Detail   string   `json:"detail,omitempty"`
	ElapsedS float64  `json:"elapsed_s,omitempty"`
}

// jsonRun starts a run in events.json.
type jsonRun struct {
	Event   string    `json:"event"` // "run"
	Started time.Time `json:"started"`
	Resumed bool      `json:"resumed,omitempty"` // the run resumes saved searches
}

// resultsWriter writes one run's results directory.
type resultsWriter struct {
	dir    string
	mu     sync.Mutex
	info   runInfo
	events *os.File
	prog   shardProgress
	failed bool
	stop   chan struct{}
	done   chan struct{}
}

// newResultsWriter opens the run's directory under base and starts
// writing its progress.
func newResultsWriter(base string, info runInfo, resume bool) (*resultsWriter, error) {
	dir, err := filepath.Abs(filepath.Join(base, shardName(info.Shard, info.Shards)))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--results: %v", err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if resume {
		// The run goes on with the searches of the runs before it:
		// their results stay, gosct merge adds this run's.
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(filepath.Join(dir, eventsFile), flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--results: %v", err)
	}
	w := &resultsWriter{dir: dir, info: info, events: f, stop: make(chan struct{}), done: make(chan struct{}),
		prog: shardProgress{Format: resultsFormat, Shard: info.Shard, Shards: info.Shards, Started: info.Started}}
	w.info.Format = resultsFormat
	if err := w.writeInfo(); err != nil {
		f.Close()
		return nil, err
	}
	w.record(jsonRun{Event: "run", Started: info.Started, Resumed: resume})
	w.writeProgress()
	go w.tick()
	return w, nil
}

func (w *resultsWriter) writeInfo() error {
	b, err := json.MarshalIndent(w.info, "", "\t")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(w.dir, runFile), append(b, '\n'))
}

// setBy records what the shards divide, once the packages are known.
func (w *resultsWriter) setBy(by string, tests int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.info.By = by
	w.prog.Tests = tests
	if err := w.writeInfo(); err != nil {
		w.fail(err)
	}
}

// record appends one object to events.json.
func (w *resultsWriter) record(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.events.Write(append(b, '\n')); err != nil {
		w.fail(err)
	}
}

// observe follows the run for progress.json: the runtime's progress
// events, and the tests and bugs reported.
func (w *resultsWriter) observe(e wire.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := &w.prog
	switch e.Event {
	case "progress":
		p.Package, p.Test = e.Package, e.Test
		p.Schedules += e.Schedules - p.current
		p.current = e.Schedules
	case "test":
		p.Schedules += e.Schedules - p.current
		p.current = 0
		p.TestsDone++
		p.Test = ""
	case "bug":
		p.Bugs++
	case "error":
		p.Errors++
	}
}

func (w *resultsWriter) tick() {
	defer close(w.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.mu.Lock()
			w.writeProgress()
			w.mu.Unlock()
		}
	}
}

// writeProgress rewrites progress.json; w.mu held (or not yet shared).
func (w *resultsWriter) writeProgress() {
	w.prog.Updated = time.Now()
	b, err := json.MarshalIndent(w.prog, "", "\t")
	if err == nil {
		err = writeFileAtomic(filepath.Join(w.dir, progressFile), append(b, '\n'))
	}
	if err != nil {
		w.fail(err)
	}
}

// fail reports the first write error; the run goes on. w.mu held.
func (w *resultsWriter) fail(err error) {
	if !w.failed {
		w.failed = true
		fmt.Fprintf(os.Stderr, "gosct: writing the results directory %s: %v\n", w.dir, err)
	}
}

// close marks the run done.
func (w *resultsWriter) close() {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	w.prog.Done = true
	w.prog.Test, w.prog.Package = "", ""
	w.writeProgress()
	if err := w.events.Close(); err != nil {
		w.fail(err)
	}
}

// writeFileAtomic writes path through a temporary file renamed into
// place: a reader (gosct merge --watch, on another machine of a shared
// volume) sees the old file or the new one, never half of one.
func writeFileAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o644) // a report others read (CI artifacts), not a temporary file
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
