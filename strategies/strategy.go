// Package strategies holds the decision logic of gosct: given the choices
// available at a scheduling point, which one is taken.
//
// A Strategy knows nothing of channels, mutexes or timers. The runtime
// (package runtime) serializes the goroutines of a test and, at every
// scheduling point, describes the choice as a Point: which goroutines are
// enabled, which one was running, or which ready select cases there are. The
// strategy answers with an index. Between executions the runtime calls
// NewExecution, so a stateless search (DFS, preemption or delay bounding)
// re-executes the test from the start and replays a prefix of its decisions.
//
// One file per strategy: random.go, pct.go, dfs.go, bounded.go (preemption
// and delay bounding), dfsrb.go, portfolio.go. Each registers itself from
// init with one call to register (registry.go): its name, its constructor,
// and what the programs that offer it need to know (Info: whether it is
// systematic, the options it reads, how a search of it is divided among
// machines, saved and split). The command line, the runtime and the
// benchmark know the strategies only through that registry (New, Lookup,
// All, Listed), never by a strategy's name, and take the defaults of a run
// from it (DefaultStrategy, DefaultSchedules, ChangeStrategy).
package strategies

// Kind says what a scheduling point chooses between.
type Kind uint8

const (
	// Goroutine chooses which enabled goroutine runs the next step.
	// Point.Choices are logical goroutine ids in ascending (creation) order,
	// followed by Clock when a timer may fire.
	Goroutine Kind = iota
	// Case chooses which of several ready select cases fires.
	// Point.Choices are the indices of the ready cases, ascending. When
	// Point.Current is Clock, the choices are instead timers due at the
	// same instant (0, 1, ... in the order they were armed), and the one
	// chosen fires first.
	Case
	// Value chooses the result of a small-range random draw in the
	// program under test: rand.Intn(n), rand.IntN(n), rand.N(n) and their
	// kin with n at most the runtime's limit (8), one step of a small
	// rand.Perm or rand.Shuffle. Point.Choices are the values 0..n-1.
	// Go draws them uniformly; a strategy treats them as it treats select
	// cases: random and PCT draw uniformly (seeded), the systematic
	// strategies enumerate them as free branches, in ascending order.
	Value
)

// Clock is the reserved choice of a Goroutine point that fires a timer
// instead of running a goroutine: the virtual clock moves to the deadline
// of the earliest timer that may fire now, and the timer fires (a sleeper
// becomes runnable, a timer or ticker channel receives its value, an
// AfterFunc or context deadline starts its goroutine). It is never a
// goroutine id and never Point.Current of a Goroutine point.
//
// A strategy explores it like a goroutine that is enabled whenever it is
// offered, with these conventions (docs/strategies.md):
//   - it comes last in Choices, after the goroutine ids;
//   - choosing it while Current is enabled is a preemption (pb) and, in
//     Maple's order, it is the second child (one delay for db); while
//     Current is blocked it is free for pb and the second child for db;
//   - it never yields: a yielding goroutine whose only alternative is the
//     clock is not forced to switch;
//   - pct gives it a priority of its own, drawn as for a new goroutine.
//
// What firing depends on, for a partial-order reduction: a sleep's timer
// wakes its sleeper only; a channel timer's value is a send on its channel
// (dependent with the receives and selects on it); an AfterFunc or a
// context deadline creates a goroutine (a context's deadline closes its
// Done channel). Every firing moves the clock, so it is also dependent with
// every read of the clock (time.Now) and every timer operation (arming,
// Stop, Reset) of the execution.
const Clock = -2

func (k Kind) String() string {
	switch k {
	case Goroutine:
		return "goroutine"
	case Case:
		return "case"
	case Value:
		return "value"
	}
	return "unknown"
}

// A Point is one decision the runtime asks a strategy to make.
// The runtime reuses a Point and its Choices slice: a strategy must not
// keep references to them after Next returns.
type Point struct {
	Kind Kind
	// Choices is never empty. For Kind Goroutine it holds the logical ids
	// (0 is the test goroutine, then creation order) of the enabled
	// goroutines, ascending, then Clock when a timer may fire now (never
	// alone: the clock is offered only beside a runnable goroutine).
	Choices []int
	// Current is the logical id of the goroutine that reached the
	// scheduling point. For Kind Goroutine it may be absent from Choices
	// when that goroutine has just blocked or exited (the switch is then
	// not a preemption). For Kind Case it is the goroutine in the select.
	Current int
	// Yield is true when Current reached the point by yielding
	// (runtime.Gosched, or a spin the runtime detected) rather than
	// before an operation. PCT lowers the priority of a yielding goroutine.
	Yield bool
	// Ops, when the runtime records details (replay and the re-run of a
	// buggy schedule), describes the pending operation of each choice,
	// parallel to Choices: {"chan send", "queue.go:41"}. Nil otherwise.
	Ops []Op
	// Where, for Kind Goroutine points of an execution whose strategy
	// asked for positions (Locating), tells where each choice stands.
	// Nil otherwise.
	Where Locator

	// The fields below are set only for a strategy that is an EventUser,
	// and only what its Wants asked for; they are zero otherwise.

	// Events describes, at a Kind Goroutine point, the step each choice
	// would take, parallel to Choices. The runtime reuses them too.
	Events []Event
	// Last, at a Kind Goroutine point, completes the event of the step
	// chosen at the previous goroutine point with what it did that its
	// pending event could not say (it returned from the test function,
	// after it the clock moved, ...); usually empty.
	Last Event
	// State is a signature of the program state at a Kind Goroutine
	// point (WantStates): equal states have equal signatures; see the
	// runtime for what the signature covers.
	State uint64
}

// Op is the operation a choice leads to, as recorded at the scheduling
// point: what (Name: "chan send", "mutex lock", "rand.Intn(2)") and where
// in the user's code (Pos: "queue.go:41", "" when unknown). Traces store
// the two apart; nothing joins and splits them again.
type Op struct {
	Name string
	Pos  string
}

// String is "chan send queue.go:41", for messages.
func (o Op) String() string {
	switch {
	case o.Pos == "":
		return o.Name
	case o.Name == "":
		return o.Pos
	}
	return o.Name + " " + o.Pos
}

// KindOf returns the Kind whose String is s, and false for an unknown name.
func KindOf(s string) (Kind, bool) {
	for k := Goroutine; k <= Value; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// HasClock reports whether the last choice of a Goroutine point is Clock.
func (p *Point) HasClock() bool {
	return p.Kind == Goroutine && len(p.Choices) > 0 && p.Choices[len(p.Choices)-1] == Clock
}

// Index returns the position of choice c in p.Choices, or -1.
func (p *Point) Index(c int) int {
	for i, x := range p.Choices {
		if x == c {
			return i
		}
	}
	return -1
}

// A Strategy decides every scheduling point of a sequence of executions.
type Strategy interface {
	// NewExecution prepares the next execution. It returns false when the
	// strategy has nothing left to explore (a systematic search is
	// exhausted); random strategies always return true.
	NewExecution() bool
	// Next returns the index in p.Choices of the choice taken.
	Next(p *Point) int
}

// Follower is implemented by a strategy that replays a recorded schedule
// (package replay's Replayer). While Following reports true, the runtime
// asks it at every point, also where the runtime's fairness rule would
// otherwise decide by itself (runtime/fair.go): the recorded schedule holds
// those decisions too. Once it no longer follows, the runtime decides as
// it would for any strategy.
type Follower interface {
	Following() bool
}

// Stateless is implemented by the strategies that re-execute the test from
// the start and replay a prefix of their own earlier decisions (dfs, pb,
// db, dfsrb, and the portfolio while its db member decides). Such a search
// needs every execution to see the same program: what is not a decision,
// the values of the program's large random draws and its map iteration
// orders, must not change from one execution to the next. Stateless
// reports whether the current execution is such a one; the runtime then
// seeds those sources from the run's seed alone, instead of the run's seed
// and the schedule number.
type Stateless interface {
	Stateless() bool
}

// Status is implemented by strategies that can say how far they got:
// the bound reached, whether the search space was exhausted.
type Status interface {
	// Status describes the search so far, e.g. "bound 2 (exhausted)".
	Status() string
	// Exhausted reports whether every schedule in the strategy's space
	// (within its bound, if any) has been explored.
	Exhausted() bool
}
