// Package replay defines gosct's trace format and replays traces.
//
// A Trace is self-describing, versioned JSON: what was run (package, test,
// strategy, seed, schedule index), every decision taken, and the bug. The
// runtime writes one for every bug it finds (Write is atomic: a temporary
// file renamed into place), and a Replayer is a strategies.Strategy that
// takes the recorded decisions again and reports where a changed program
// diverges from them.
//
// It depends on the standard library and strategies only, because it is
// linked into every instrumented test binary.
package replay

// Format is the version of the trace format written by this package.
const Format = 1

// Trace is one buggy schedule.
type Trace struct {
	Format  int    `json:"format"`
	Gosct   string `json:"gosct"`
	Go      string `json:"go"`
	Package string `json:"package"`
	// Dir is the package's directory on the machine that wrote the trace,
	// when known: `gosct replay` rebuilds from there if it still holds the
	// package, so a trace replays from any working directory.
	Dir  string `json:"dir,omitempty"`
	Test string `json:"test"`
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
}

// Decision is one scheduling decision.
type Decision struct {
	// Kind is "goroutine" or "case" (strategies.Kind.String()).
	Kind string `json:"kind"`
	// Choice is what was chosen: a logical goroutine id, or a select case index.
	Choice int `json:"choice"`
	// G is the logical id of the goroutine that reached the point.
	G int `json:"g"`
	// Op and Pos describe the chosen goroutine's pending operation
	// ("chan send", "queue.go:41"), when recorded.
	Op  string `json:"op,omitempty"`
	Pos string `json:"pos,omitempty"`
	// Enabled lists the choices that were available.
	Enabled []int `json:"enabled,omitempty"`
}

// Bug is what went wrong at the end of the schedule.
type Bug struct {
	// Kind is deadlock, leak, panic, failure, race or livelock.
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Report is the full human-readable report.
	Report     string      `json:"report,omitempty"`
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
