package strategies

import (
	"encoding/json"
	"fmt"
	"io"
)

// Defaults of PCT's parameters. DefaultSteps is only used until the first
// execution has been counted.
const (
	DefaultDepth   = 3
	DefaultThreads = 2
	DefaultSteps   = 100
)

// PCT ("pct") is probabilistic concurrency testing (Burckhardt, Kothari,
// Musuvathi and Nagarakatte, "A Randomized Scheduler with Probabilistic
// Guarantees of Finding Bugs", ASPLOS 2010) as SCTBench runs it (Thomson,
// Donaldson and Betts, "Concurrency Testing Using Controlled Schedulers:
// An Empirical Study", ACM TOPC 2016, §2.7), for a bug depth d:
//
//   - every goroutine gets a distinct random initial priority among
//     d, d+1, ..., d+n-1 (the SCTBench paper's Example 3 uses exactly
//     these values; its §2.7 prints "d+n", a misprint: n threads need n
//     values). Goroutines appear during an
//     execution, so a priority is assigned lazily when a new logical id is
//     first seen, drawn uniformly from the values not yet used; when more
//     goroutines appear than n, the newcomer is inserted at a uniformly
//     random rank among all initial priorities, which keeps the relative
//     order a uniform random permutation;
//   - d-1 distinct change points k_1..k_{d-1} are drawn uniformly from
//     1..k; after the k_i-th step, the goroutine that executed it gets
//     priority i (below every initial priority);
//   - the highest-priority enabled goroutine always runs;
//   - a goroutine that yields (Point.Yield) drops below every priority
//     given so far, as SCTBench does instead of PCT's starvation heuristic;
//   - the Clock choice (a timer firing early) is a thread of its own: it
//     gets an initial priority when first offered in an execution, drawn as
//     for a new goroutine, and a change point can lower it. A high clock
//     fires timers as early as they may fire; a low one leaves them until
//     every goroutine is blocked.
//
// Steps are the Kind Goroutine points, counted from the first point at which
// a second goroutine exists (the paper counts from the step that creates
// it, so its k_1 = 2 in Example 3 is our k_1 = 1). Select cases are chosen
// uniformly at random.
//
// n and k are estimated as the paper's footnote 5 suggests, continuously:
// each execution uses the largest number of goroutines and of counted steps
// seen in the earlier executions of this strategy (each test function gets
// its own strategy), never less than Options.Threads and Options.Steps when
// those are set. Before any execution has been counted, n and k are
// Options.Threads and Options.Steps, or DefaultThreads and DefaultSteps.
type PCT struct {
	rng  *execRand
	d    int
	n, k int // largest goroutines and steps seen by finished executions
	minN int // Options.Threads
	minK int // Options.Steps
	seen bool

	prio     []int // by logical id
	clock    int   // priority of the Clock choice, once seen
	clockSet bool
	unused   []int // initial priorities not given yet
	change   []int // change steps k_1..k_{d-1}
	changeTo []int // priority given at change[i]
	step     int   // counted steps so far
	counting bool
	low      int // next "lowest possible" priority for a yield
	maxG     int // goroutines seen in this execution
	begun    bool
	runs     int
}

// NewPCT returns PCT with depth o.Depth (default 3) seeded from o.Seed.
func NewPCT(o Options) *PCT {
	d := o.Depth
	if d <= 0 {
		d = DefaultDepth
	}
	return &PCT{rng: newExecRand(o.Seed), d: d, minN: o.Threads, minK: o.Steps}
}

func init() {
	register(Info{Name: "pct", Summary: "probabilistic concurrency testing (--depth)", Sampling: true, Reads: OptDepth, Ranged: true, Resumes: true, New: func(o Options) Strategy { return NewPCT(o) }})
}

// NewExecution updates n and k from the execution that ended and draws the
// priorities and change points of the next one.
func (s *PCT) NewExecution() bool {
	if s.begun {
		if !s.seen {
			s.n, s.k = 0, 0
		}
		s.seen = true
		if s.maxG > s.n {
			s.n = s.maxG
		}
		if s.step > s.k {
			s.k = s.step
		}
	}
	s.start()
	return true
}

func (s *PCT) estimates() (n, k int) {
	n, k = s.n, s.k
	if !s.seen {
		n, k = DefaultThreads, DefaultSteps
		if s.minN > 0 {
			n = s.minN
		}
		if s.minK > 0 {
			k = s.minK
		}
	}
	if n < s.minN {
		n = s.minN
	}
	if k < s.minK {
		k = s.minK
	}
	if n < 1 {
		n = 1
	}
	if k < 1 {
		k = 1
	}
	return n, k
}

func (s *PCT) start() {
	s.begun = true
	s.runs++
	s.rng.start(s.runs)
	n, k := s.estimates()
	s.prio = s.prio[:0]
	s.unused = s.unused[:0]
	for i := 0; i < n; i++ {
		s.unused = append(s.unused, s.d+i)
	}
	// d-1 distinct change points in 1..k (all of 1..k if k < d-1),
	// each with the priority of its index.
	s.change, s.changeTo = s.change[:0], s.changeTo[:0]
	m := s.d - 1
	if m > k {
		m = k
	}
	for len(s.change) < m {
		c := 1 + s.rng.Intn(k)
		if indexOf(s.change, c) < 0 {
			s.change = append(s.change, c)
			s.changeTo = append(s.changeTo, len(s.change))
		}
	}
	s.step, s.counting, s.low, s.maxG = 0, false, 0, 0
	s.clockSet = false
}

// prioOf is the priority of choice c.
func (s *PCT) prioOf(c int) int {
	if c == Clock {
		return s.clock
	}
	return s.prio[c]
}

// seeClock gives the clock its initial priority the first time it is
// offered in an execution: it is drawn as a new goroutine's would be (the
// draw happens then, so executions without timers draw what they drew
// before clocks existed).
func (s *PCT) seeClock() {
	if s.clockSet {
		return
	}
	s.assign()
	s.clock = s.prio[len(s.prio)-1]
	s.prio = s.prio[:len(s.prio)-1]
	s.clockSet = true
}

// see assigns initial priorities to id and to every smaller id not seen
// yet, in ascending order: logical ids are dense in creation order, so they
// all exist, and the draws do not depend on the order of a Point's lists.
// Every id below len(s.prio) has its priority.
func (s *PCT) see(id int) {
	for len(s.prio) <= id {
		s.assign()
	}
	if id+1 > s.maxG {
		s.maxG = id + 1
	}
}

// assign gives the next logical id its initial priority.
func (s *PCT) assign() {
	if len(s.unused) > 0 {
		i := s.rng.Intn(len(s.unused))
		s.prio = append(s.prio, s.unused[i])
		s.unused[i] = s.unused[len(s.unused)-1]
		s.unused = s.unused[:len(s.unused)-1]
		return
	}
	// More goroutines than n: insert at a random rank among the initial
	// priorities given so far (values >= d; lower ones were set by a
	// change point or a yield and stay below). The clock's counts as one.
	given := 0
	for _, p := range s.prio {
		if p >= s.d {
			given++
		}
	}
	if s.clockSet && s.clock >= s.d {
		given++
	}
	r := s.d + s.rng.Intn(given+1)
	for g, p := range s.prio {
		if p >= r {
			s.prio[g]++
		}
	}
	if s.clockSet && s.clock >= r {
		s.clock++
	}
	s.prio = append(s.prio, r)
}

// Next runs the highest-priority enabled goroutine.
func (s *PCT) Next(p *Point) int {
	if !s.begun {
		s.start()
	}
	if p.Kind != Goroutine {
		return s.rng.Intn(len(p.Choices))
	}
	gs := p.Choices
	if p.HasClock() {
		gs = gs[:len(gs)-1]
	}
	s.see(p.Current)
	if len(gs) > 0 {
		s.see(gs[len(gs)-1])
	}
	if len(gs) < len(p.Choices) {
		s.seeClock()
	}
	if !s.counting && s.maxG > 1 {
		s.counting = true
	}
	if p.Yield && p.Current >= 0 {
		s.prio[p.Current] = s.low
		s.low--
	}
	best := 0
	for i, c := range p.Choices {
		if s.prioOf(c) > s.prioOf(p.Choices[best]) {
			best = i
		}
	}
	if s.counting {
		s.step++
		for i, c := range s.change {
			if c == s.step {
				if b := p.Choices[best]; b == Clock {
					s.clock = s.changeTo[i]
				} else {
					s.prio[b] = s.changeTo[i]
				}
			}
		}
	}
	return best
}

// Status gives the parameters in use, e.g. "d=3 n=4 k=120".
func (s *PCT) Status() string {
	n, k := s.estimates()
	return fmt.Sprintf("d=%d n=%d k=%d, %d schedules", s.d, n, k, s.runs)
}

// Exhausted is false: PCT samples, it never completes.
func (s *PCT) Exhausted() bool { return false }

func indexOf(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// Seek makes the next execution number n+1, with the priorities and
// change points a search that ran the n before it would draw, given the n
// and k it knows: a PCT that did not run them has not learned their
// estimates, and uses what it learns from then on.
func (s *PCT) Seek(n int) {
	s.runs, s.begun = n, false
}

// savedPCT is the saved state of a PCT between two executions: how many
// executions it prepared (each draws from a stream of its own), what it
// learned of n and k, and the counts of the execution that ended, which the
// next NewExecution folds into n and k.
type savedPCT struct {
	Format   int    `json:"format"`
	Strategy string `json:"strategy"`
	Depth    int    `json:"depth"`
	Seed     int64  `json:"seed"`
	N        int    `json:"n"`
	K        int    `json:"k"`
	Seen     bool   `json:"seen"`
	Begun    bool   `json:"begun"`
	Runs     int    `json:"runs"`
	Step     int    `json:"step"`
	MaxG     int    `json:"max_g"`
}

// Save writes the state; call it between executions. The resumed strategy
// draws the same priorities and change points as the uninterrupted one.
func (s *PCT) Save(w io.Writer) error {
	return json.NewEncoder(w).Encode(savedPCT{
		Format: streamFormat, Strategy: "pct", Depth: s.d, Seed: s.rng.seed,
		N: s.n, K: s.k, Seen: s.seen, Begun: s.begun, Runs: s.runs, Step: s.step, MaxG: s.maxG,
	})
}

// Load restores what Save wrote, into a PCT created with the same options.
func (s *PCT) Load(r io.Reader) error {
	var v savedPCT
	if err := decodeSavedFormat(r, "pct", streamFormat, &v, &v.Format, &v.Strategy); err != nil {
		return err
	}
	if v.Depth != s.d {
		return fmt.Errorf("saved pct state has depth %d, not %d", v.Depth, s.d)
	}
	if v.Seed != s.rng.seed {
		return fmt.Errorf("saved pct state was drawn with seed %d, not %d", v.Seed, s.rng.seed)
	}
	if v.N < 0 || v.K < 0 || v.Step < 0 || v.MaxG < 0 || v.Runs < 0 {
		return fmt.Errorf("saved pct state has a negative count: %+v", v)
	}
	s.n, s.k, s.seen, s.begun, s.runs, s.step, s.maxG = v.N, v.K, v.Seen, v.Begun, v.Runs, v.Step, v.MaxG
	return nil
}
