package strategies

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// Jump strategies of DFS-RB: how far an early backtrack jumps.
const (
	JumpFixed  = "fixed"  // one transition
	JumpRandom = "random" // continue with probability 1-ratio per level
	JumpLuby   = "luby"   // the i-th jump pops luby(i) transitions
)

// Ratio forms of DFS-RB (the paper's rtb): the probability of going
// forward rather than backtracking early.
const (
	RatioConst  = "const" // C
	RatioDepth  = "1-d/c" // 1 - depth/C
	RatioRun    = "1-r/c" // 1 - r/C, r = non-switching points just before
	RatioPowRun = "c^r"   // C^r
)

// DFSRBConfig is the paper's configuration tuple <thb, thm, thr, stg, rtb,
// rtc>, plus the stateless budget.
type DFSRBConfig struct {
	// Thresholds is thb: one value is a constant threshold; several are
	// the iterative form "I", one search per value in turn, each with
	// Budget executions.
	Thresholds []int
	// LFactor, when set, is thb's third form L*f instead: the threshold
	// is f times the depth L of the first path, which the first
	// execution explores to its end with nothing pruned.
	LFactor float64
	// Switches is thm = "cs": depth counts context switches instead of
	// branching points (thm = "pl").
	Switches bool
	// NCS is thr = "ncs": the threshold is lowered by the number of
	// branching points on the path where the running goroutine went on.
	NCS bool
	// Jump is stg: JumpFixed, JumpRandom or JumpLuby.
	Jump string
	// Ratio and C are rtb: Ratio is one of the Ratio* forms.
	Ratio string
	C     float64
	// SwitchCoef is rtc: the ratio is multiplied by it right after a
	// context switch (1 disables it).
	SwitchCoef float64
	// Budget is the number of executions each threshold gets (the
	// paper's one minute per iteration) in the first pass over
	// Thresholds; every later pass doubles it.
	Budget int
	// RandomOrder tries the children of each point in a random order
	// (drawn once per point) instead of Maple's; the paper found DFS-RB
	// combined with a random order the most robust of its techniques.
	RandomOrder bool
}

// DefaultDFSRB is the paper's top-ranked configuration
// <I:5-10-20-50-100, pl, d, Luby, 0.75, 1.5>, with 250 executions per
// threshold.
var DefaultDFSRB = DFSRBConfig{
	Thresholds: []int{5, 10, 20, 50, 100},
	Jump:       JumpLuby,
	Ratio:      RatioConst,
	C:          0.75,
	SwitchCoef: 1.5,
	Budget:     250,
}

// rbFrame is one branching point of the current schedule. The cumulative
// counts describe the path ending with this point, so every quantity the
// configuration needs is O(1) to read.
type rbFrame struct {
	rank, n  int
	curRank  int    // rank of the goroutine that reached the point, or -1
	shuffle  uint64 // seed of the point's child order (RandomOrder)
	switches int    // context switches on the path, this point included
	stays    int    // points where the current goroutine went on
	run      int    // trailing points without a switch
	switched bool
}

// DFSRB ("dfsrb") is depth-first search with randomized early backtracking
// (Parížek and Lhoták, "Fast Detection of Concurrency Errors by State
// Space Traversal with Randomization and Early Backtracking", STTT 2019),
// made stateless: see docs/strategies.md
// for every adaptation. Above the threshold the search is a complete DFS
// in Maple's order; at and below it, before each child, the search goes on
// with probability ratio and otherwise backtracks early, jumping back as far
// as the jump strategy says. An execution pruned at a new point cannot be
// abandoned (the runtime runs every execution to its end), so it is
// completed by uniformly random choices that are not part of the search
// tree: the paper's "random walk below the threshold" made literal.
type DFSRB struct {
	cfg DFSRBConfig
	rng *savedRand
	// specErr: the configuration asked for did not parse.
	specErr error

	stack  []rbFrame
	pos    int
	pruned bool // this execution was pruned at a new point
	begun  bool
	done   bool

	iter      int // index in cfg.Thresholds
	iterRuns  int
	iterPrune int // early backtracks in this iteration
	jumps     int // total_jump_index
	jumpLen   int // cur_jump_len
	runs      int
	cycles    int
	// diverged counts the points where the program did not replay.
	diverged int
	scratch  []int
}

// NewDFSRB returns DFS-RB with the configuration o.DFSRB (ParseDFSRB;
// DefaultDFSRB when empty), seeded from o.Seed. A spec that does not
// parse (the command checks it first) leaves the default, and Status
// says why.
func NewDFSRB(o Options) *DFSRB {
	if o.DFSRB == "" {
		return NewDFSRBConfig(o, DefaultDFSRB)
	}
	c, err := ParseDFSRB(o.DFSRB)
	if err != nil {
		s := NewDFSRBConfig(o, DefaultDFSRB)
		s.specErr = fmt.Errorf("dfsrb configuration %q: %v", o.DFSRB, err)
		return s
	}
	return NewDFSRBConfig(o, c)
}

// NewDFSRBConfig returns DFS-RB with configuration c. Empty Thresholds
// (without LFactor), Jump, Ratio and a zero Budget take DefaultDFSRB's
// values; a zero SwitchCoef means 1 (rtc disabled).
func NewDFSRBConfig(o Options, c DFSRBConfig) *DFSRB {
	return &DFSRB{cfg: c.withDefaults(), rng: newSavedRand(o.Seed)}
}

func (c DFSRBConfig) withDefaults() DFSRBConfig {
	d := DefaultDFSRB
	if c.LFactor > 0 {
		c.Thresholds = []int{0} // set from the first path
	} else if len(c.Thresholds) == 0 {
		c.Thresholds = d.Thresholds
	}
	if c.Jump == "" {
		c.Jump = d.Jump
	}
	if c.Ratio == "" {
		c.Ratio, c.C = d.Ratio, d.C
	}
	if c.SwitchCoef == 0 {
		c.SwitchCoef = 1
	}
	if c.Budget <= 0 {
		c.Budget = d.Budget
	}
	return c
}

func init() {
	register(Info{Name: "dfsrb", Summary: "DFS with randomized early backtracking (--dfsrb: its configuration)", Systematic: true, Reads: OptDFSRB, Resumes: true, New: func(o Options) Strategy {
		if IsDFSRBPortfolio(o.DFSRB) {
			return NewDFSRBPortfolio(o)
		}
		return NewDFSRB(o)
	}})
}

func (s *DFSRB) last(path []rbFrame) rbFrame {
	if len(path) == 0 {
		return rbFrame{}
	}
	return path[len(path)-1]
}

func (s *DFSRB) depth(path []rbFrame) int {
	if s.cfg.Switches {
		return s.last(path).switches
	}
	return len(path)
}

func (s *DFSRB) threshold(path []rbFrame) int {
	v := s.cfg.Thresholds[s.iter]
	if v == 0 {
		// L*f before the first path has been explored: nothing is
		// pruned on it.
		return math.MaxInt
	}
	if s.cfg.NCS {
		v -= s.last(path).stays
	}
	return v
}

func (s *DFSRB) ratio(path []rbFrame) float64 {
	c := s.cfg.C
	var v float64
	switch s.cfg.Ratio {
	case RatioDepth:
		v = 1 - float64(s.depth(path))/c
	case RatioRun:
		v = 1 - float64(s.last(path).run)/c
	case RatioPowRun:
		v = math.Pow(c, float64(s.last(path).run))
	default:
		v = c
	}
	if len(path) > 0 && s.last(path).switched {
		v *= s.cfg.SwitchCoef
	}
	return v
}

// prune is lines 15-16 of the paper's Fig. 1 for the state at the end of
// path: true means backtrack early instead of taking the next child.
func (s *DFSRB) prune(path []rbFrame) bool {
	return s.depth(path) >= s.threshold(path) && s.rng.Float64() > s.ratio(path)
}

// again is the paper's backtrackAgain (Fig. 4), called only while a jump is
// in progress.
func (s *DFSRB) again(path []rbFrame) bool {
	if s.depth(path) < s.threshold(path) {
		return false
	}
	switch s.cfg.Jump {
	case JumpRandom:
		return s.rng.Float64() > s.ratio(path)
	case JumpLuby:
		if luby(s.jumps) > s.jumpLen {
			s.jumpLen++
			return true
		}
	}
	return false
}

func (s *DFSRB) startJump() {
	s.jumps++
	s.jumpLen = 1
	s.iterPrune++
}

// shuffle permutes ord by a Fisher-Yates shuffle driven by splitmix64 from
// seed: the same seed gives the same order on every replay, without keeping
// the order itself.
func shuffle(ord []int, seed uint64) {
	for i := len(ord) - 1; i > 0; i-- {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		j := int(z % uint64(i+1))
		ord[i], ord[j] = ord[j], ord[i]
	}
}

// luby returns the i-th element (from 1) of the Luby sequence
// 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
func luby(i int) int {
	for k := 1; ; k++ {
		if i == (1<<k)-1 {
			return 1 << (k - 1)
		}
		if i < (1<<k)-1 {
			return luby(i - (1 << (k - 1)) + 1)
		}
	}
}

// NewExecution backtracks (early if the execution was pruned) to the next
// schedule, moving to the next threshold when the budget of this one is
// spent or its pruned search is complete.
func (s *DFSRB) NewExecution() bool {
	if s.done {
		return false
	}
	if !s.begun {
		s.begun = true
		s.begin()
		return true
	}
	s.iterRuns++
	if s.cfg.LFactor > 0 && s.cfg.Thresholds[0] == 0 {
		// The first path: its depth L sets the threshold.
		s.cfg.Thresholds[0] = max(1, int(math.Round(s.cfg.LFactor*float64(s.depth(s.stack)))))
	}
	if !s.pruned && s.pos < len(s.stack) {
		// The execution ended before replaying the whole prefix: the
		// program did not replay; the levels it did not reach are stale.
		s.diverged++
		s.stack = s.stack[:s.pos]
	}
	if s.iterRuns >= s.cfg.Budget<<s.shift() {
		s.nextIteration()
		s.begin()
		return true
	}
	if s.backtrack(s.pruned) {
		s.begin()
		return true
	}
	if s.iterPrune == 0 {
		// Nothing was pruned: this was a complete DFS.
		s.done = true
		return false
	}
	s.nextIteration()
	s.begin()
	return true
}

// shift is the budget's doubling count, capped so it cannot overflow.
func (s *DFSRB) shift() uint {
	if s.cycles > 20 {
		return 20
	}
	return uint(s.cycles)
}

func (s *DFSRB) begin() {
	s.pos, s.pruned = 0, false
	s.runs++
}

// nextIteration restarts the search from scratch with the next threshold.
// After the last one the paper stops; we start the sequence again, the
// random stream going on, with twice the budget: the part above the
// threshold is a deterministic DFS, so with the same budget a new pass would
// explore the same prefixes again, whereas doubling lets every threshold's
// search eventually complete.
func (s *DFSRB) nextIteration() {
	s.iter++
	if s.iter == len(s.cfg.Thresholds) {
		s.iter = 0
		s.cycles++
	}
	s.stack = s.stack[:0]
	s.iterRuns, s.iterPrune, s.jumps, s.jumpLen = 0, 0, 0, 0
}

// backtrack is the stateless form of the paper's loop: it leaves on the
// stack the prefix of the next execution, or returns false when the
// iteration's search is over.
func (s *DFSRB) backtrack(early bool) bool {
	if early {
		s.startJump()
	}
	for len(s.stack) > 0 {
		top := &s.stack[len(s.stack)-1]
		path := s.stack[:len(s.stack)-1]
		if early {
			if s.again(path) {
				s.stack = path
				continue
			}
			early = false
		}
		if top.rank+1 < top.n {
			if s.prune(path) {
				s.stack = path
				early = true
				s.startJump()
				continue
			}
			s.setRank(len(s.stack)-1, top.rank+1)
			return true
		}
		s.stack = path
	}
	return false
}

// Next replays the stack, then decides at each new branching point whether
// to expand it (taking its first child) or to prune there.
func (s *DFSRB) Next(p *Point) int {
	if !s.begun {
		s.begun = true
		s.begin()
	}
	s.scratch = mapleOrder(p, s.scratch)
	ord := s.scratch
	if len(ord) == 1 {
		return ord[0]
	}
	if s.pruned {
		return ord[s.rng.Intn(len(ord))]
	}
	if s.pos < len(s.stack) {
		f := &s.stack[s.pos]
		if f.n != len(ord) {
			// Divergence: the program did not replay. Go on with
			// what this point offers; the subtree below is new.
			s.diverged++
			s.stack = s.stack[:s.pos+1]
			f.n = len(ord)
			if f.rank >= f.n {
				f.rank = f.n - 1
			}
		}
		if f.shuffle != 0 {
			shuffle(ord, f.shuffle)
		}
		s.pos++
		return ord[f.rank]
	}
	if s.prune(s.stack) {
		s.pruned = true
		return ord[s.rng.Intn(len(ord))]
	}
	f := rbFrame{n: len(ord)}
	if s.cfg.RandomOrder {
		f.shuffle = uint64(s.rng.Int63()) | 1 // 0 means "not shuffled"
		shuffle(ord, f.shuffle)
	}
	// curRank: -1 for a select, which never switches goroutines;
	// otherwise the rank of the current goroutine, len(ord) when it is
	// not a child (blocked, exited or yielding): every child switches.
	f.curRank = -1
	if p.Kind == Goroutine {
		f.curRank = len(ord)
		for r, i := range ord {
			if p.Choices[i] == p.Current {
				f.curRank = r
			}
		}
	}
	s.stack = append(s.stack, f)
	s.setRank(len(s.stack)-1, 0)
	s.pos++
	return ord[0]
}

// setRank takes child r at level i, the deepest level, and updates the
// path counts of the path ending there.
func (s *DFSRB) setRank(i, r int) {
	f := &s.stack[i]
	prev := s.last(s.stack[:i])
	f.rank = r
	f.switched = f.curRank >= 0 && r != f.curRank
	if f.switched {
		f.switches, f.stays, f.run = prev.switches+1, prev.stays, 0
	} else {
		f.switches, f.stays, f.run = prev.switches, prev.stays+1, prev.run+1
	}
}

// Stateless is true: DFS-RB re-executes prefixes of its schedules.
func (s *DFSRB) Stateless() bool { return true }

// Exhausted reports whether a threshold's search completed without pruning
// anything, which makes it a complete DFS.
func (s *DFSRB) Exhausted() bool { return s.done }

// Status describes the configuration and where the search is.
func (s *DFSRB) Status() string {
	var st string
	th := s.cfg.Thresholds[s.iter]
	switch {
	case s.done:
		st = fmt.Sprintf("exhausted: %d schedules (nothing pruned at threshold %d)", s.runs, th)
	case th == 0:
		st = fmt.Sprintf("first path (its depth sets the threshold): %d schedules", s.runs)
	default:
		st = fmt.Sprintf("threshold %d (%d of %d, cycle %d): %d schedules, %d early backtracks in this iteration",
			th, s.iter+1, len(s.cfg.Thresholds), s.cycles+1, s.runs, s.iterPrune)
	}
	st += "; " + s.cfg.String()
	if s.specErr != nil {
		st += " (" + s.specErr.Error() + ": the default instead)"
	}
	if s.diverged > 0 {
		st = NotAProof(st, fmt.Sprintf("%d replay divergences: the program is not deterministic under gosct", s.diverged))
	}
	return st
}

// savedFrame is an rbFrame in a saved DFS-RB state.
type savedFrame struct {
	Rank     int    `json:"rank"`
	N        int    `json:"n"`
	CurRank  int    `json:"cur_rank"`
	Shuffle  uint64 `json:"shuffle,omitempty"`
	Switches int    `json:"switches"`
	Stays    int    `json:"stays"`
	Run      int    `json:"run"`
	Switched bool   `json:"switched,omitempty"`
}

// savedDFSRB is the saved state of a DFS-RB between two executions.
type savedDFSRB struct {
	Format     int          `json:"format"`
	Strategy   string       `json:"strategy"`
	Thresholds []int        `json:"thresholds"`
	Rand       randState    `json:"rand"`
	Stack      []savedFrame `json:"stack"`
	Pos        int          `json:"pos"`
	Pruned     bool         `json:"pruned"`
	Begun      bool         `json:"begun"`
	Done       bool         `json:"done"`
	Iter       int          `json:"iter"`
	IterRuns   int          `json:"iter_runs"`
	IterPrune  int          `json:"iter_prune"`
	Jumps      int          `json:"jumps"`
	JumpLen    int          `json:"jump_len"`
	Runs       int          `json:"runs"`
	Cycles     int          `json:"cycles"`
	Diverged   int          `json:"diverged,omitempty"`
	// Config is the configuration (DFSRBConfig.String); a state saved
	// under another one is refused.
	Config string `json:"config,omitempty"`
}

// Save writes the search state (the frontier, the iteration, the random
// stream); call it between executions.
func (s *DFSRB) Save(w io.Writer) error {
	v := savedDFSRB{
		Format: stateFormat, Strategy: "dfsrb", Thresholds: s.cfg.Thresholds, Rand: s.rng.state(),
		Pos: s.pos, Pruned: s.pruned, Begun: s.begun, Done: s.done, Iter: s.iter, IterRuns: s.iterRuns,
		IterPrune: s.iterPrune, Jumps: s.jumps, JumpLen: s.jumpLen, Runs: s.runs, Cycles: s.cycles,
		Diverged: s.diverged, Config: s.configID(), Stack: make([]savedFrame, len(s.stack)),
	}
	for i, f := range s.stack {
		v.Stack[i] = savedFrame{Rank: f.rank, N: f.n, CurRank: f.curRank, Shuffle: f.shuffle,
			Switches: f.switches, Stays: f.stays, Run: f.run, Switched: f.switched}
	}
	return json.NewEncoder(w).Encode(v)
}

// Load restores what Save wrote, into a DFS-RB of the same configuration.
func (s *DFSRB) Load(r io.Reader) error {
	var v savedDFSRB
	if err := decodeSaved(r, "dfsrb", &v, &v.Format, &v.Strategy); err != nil {
		return err
	}
	if v.Config != "" && v.Config != s.configID() {
		return fmt.Errorf("saved dfsrb state has configuration %s, not %s", v.Config, s.configID())
	}
	if s.cfg.LFactor > 0 && len(v.Thresholds) == 1 {
		// The threshold L*f was set by the saved search's first path.
		s.cfg.Thresholds[0] = v.Thresholds[0]
	}
	if fmt.Sprint(v.Thresholds) != fmt.Sprint(s.cfg.Thresholds) {
		return fmt.Errorf("saved dfsrb state has thresholds %v, not %v", v.Thresholds, s.cfg.Thresholds)
	}
	if v.Iter < 0 || v.Iter >= len(s.cfg.Thresholds) || v.Pos < 0 {
		return fmt.Errorf("saved dfsrb state is inconsistent: iteration %d, position %d of %d", v.Iter, v.Pos, len(v.Stack))
	}
	stack := make([]rbFrame, len(v.Stack))
	for i, f := range v.Stack {
		if f.N < 2 || f.Rank < 0 || f.Rank >= f.N {
			return fmt.Errorf("saved dfsrb state: bad level %d: %+v", i, f)
		}
		stack[i] = rbFrame{rank: f.Rank, n: f.N, curRank: f.CurRank, shuffle: f.Shuffle,
			switches: f.Switches, stays: f.Stays, run: f.Run, switched: f.Switched}
	}
	if err := s.rng.restore(v.Rand); err != nil {
		return err
	}
	s.stack, s.pos, s.pruned, s.begun, s.done = stack, v.Pos, v.Pruned, v.Begun, v.Done
	s.iter, s.iterRuns, s.iterPrune, s.jumps, s.jumpLen = v.Iter, v.IterRuns, v.IterPrune, v.Jumps, v.JumpLen
	s.runs, s.cycles, s.diverged = v.Runs, v.Cycles, v.Diverged
	return nil
}

// configID is the configuration as saved states name it: the tuple and
// the options, without the threshold L*f sets from the first path.
func (s *DFSRB) configID() string {
	c := s.cfg
	if c.LFactor > 0 {
		c.Thresholds = nil
	}
	return c.String()
}
