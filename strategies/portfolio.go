package strategies

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Portfolio ("portfolio", the default) runs several strategies in turn, one
// execution each, so that a user who picks nothing gets the strengths of
// all: random finds the most bugs in the first few schedules, PCT d=2 and
// d=3 catch the bugs that need a goroutine held back for long, and iterative
// delay bounding takes the round-robin schedule second and then explores
// the few-delay schedules systematically (SCTBench: IDB 45, PCT d=3 48,
// random 43 of 49 within 100,000 schedules; each misses bugs the others
// find).
//
// Members: random, db (bound Options.Bound, default 3), pct d=3, pct d=2,
// pct d=1, dpor, and guided search when there is a guide (Options.Guide),
// each with its own seed derived from Options.Seed. The
// rotation is weighted by how many SCTBench bugs each found early (random
// 27 within 2 schedules, PCT d=3 the most within 100,000, PCT d=1 the
// fewest): a cycle of 10 executions is random, db, pct d=3, dpor, random,
// pct d=2, random, pct d=3, pct d=1, dpor. db is cheap to include: its
// state is one small record per branching point, and it is called only on
// its turns, so it explores its schedules in its own order; when it is
// exhausted it leaves the rotation. A PCT member learns n and k from its
// own executions only.
//
// dpor is there for the tests that are correct, most of a real suite:
// it runs one schedule per Mazurkiewicz trace, so on a small test it has
// explored them all after a few dozen turns, and then no schedule can
// find anything the portfolio has not seen: the portfolio stops, with the
// test proved within the model, where it would otherwise run every
// schedule of its limit. Its turns also find bugs (more SCTBench bugs
// than dfs within the same limit, docs/results.md). It is unbounded here,
// whatever Options.Bound says (that is db's), and matches no states.
type Portfolio struct {
	members []member
	cycle   []int // rotation: indices into members
	turn    int   // index in cycle of the current execution
	cur     int   // member of the current execution, -1 before the first
	runs    int
	// gaps counts the executions that depended on something no
	// decision chose (End): a member that does not read End (db) has
	// proved nothing if any execution had one.
	gaps int
}

type member struct {
	name string
	s    Strategy
	runs int
	out  bool // exhausted, out of the rotation
}

// NewPortfolio returns the default portfolio.
func NewPortfolio(o Options) *Portfolio {
	mk := func(i int, f func(Options) Strategy, mod func(*Options)) Strategy {
		so := o
		so.Seed = deriveSeed(o.Seed, i)
		if mod != nil {
			mod(&so)
		}
		return f(so)
	}
	pct := func(d int) func(*Options) { return func(o *Options) { o.Depth = d } }
	newPCT := func(o Options) Strategy { return NewPCT(o) }
	unbounded := func(o *Options) { o.Bound, o.States = 0, false }
	p := &Portfolio{cur: -1, turn: -1, cycle: []int{0, 1, 2, 5, 0, 3, 0, 2, 4, 5}, members: []member{
		{name: "random", s: mk(0, func(o Options) Strategy { return NewRandom(o) }, nil)},
		{name: "db", s: mk(1, func(o Options) Strategy { return NewDB(o) }, nil)},
		{name: "pct d=3", s: mk(2, newPCT, pct(3))},
		{name: "pct d=2", s: mk(3, newPCT, pct(2))},
		{name: "pct d=1", s: mk(4, newPCT, pct(1))},
		{name: "dpor", s: mk(6, func(o Options) Strategy { return NewDPOR(o) }, unbounded)},
	}}
	if o.Guide != "" {
		// With a guide, guided search takes the third turn of
		// every eleven: deep bugs in long tests with many goroutines
		// that take no part in them, which the others rarely reach.
		p.members = append(p.members, member{name: "guided", s: mk(5, func(o Options) Strategy { return NewGuided(o) }, nil)})
		p.cycle = []int{0, 1, 6, 2, 5, 0, 3, 0, 2, 4, 5}
	}
	return p
}

func init() {
	register(Info{Name: "portfolio", Summary: "random, PCT, delay bounding, dpor and guided search (with a guide) in turn", Reads: OptBound | OptGuide | OptWalk,
		Members: []string{"random", "db", "pct", "dpor", "guided"}, Ranged: true, Tree: true, Resumes: true, New: func(o Options) Strategy { return NewPortfolio(o) }})
}

// deriveSeed gives member i a seed of its own (splitmix64 of the pair), so
// members do not draw the same random numbers.
func deriveSeed(seed int64, i int) int64 {
	z := uint64(seed) + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return int64(z ^ (z >> 31))
}

// NewExecution hands the next execution to the next member still in the
// rotation. Once a member has proved the test (dpor exhausted without
// anything that makes it incomplete), every schedule is equivalent to
// one it ran and the portfolio ends.
func (p *Portfolio) NewExecution() bool {
	if p.proved() {
		return false
	}
	if p.cur >= 0 && !p.Owned() {
		// A probe of a sharded member (shard.go) is not one of the
		// portfolio's executions: the member takes its turn again.
		p.turn = (p.turn + len(p.cycle) - 1) % len(p.cycle)
		p.runs--
		p.members[p.cur].runs--
	}
	for tries := 0; tries < len(p.cycle); tries++ {
		p.turn = (p.turn + 1) % len(p.cycle)
		p.cur = p.cycle[p.turn]
		m := &p.members[p.cur]
		if m.out {
			continue
		}
		if m.s.NewExecution() {
			m.runs++
			p.runs++
			return true
		}
		m.out = true
		if p.proved() {
			return false
		}
	}
	return false
}

// Next asks the member of the current execution.
func (p *Portfolio) Next(pt *Point) int {
	if p.cur < 0 {
		p.NewExecution()
	}
	return p.members[p.cur].s.Next(pt)
}

// Stateless is the current member's: true while db decides, or guided
// search in one of its descents.
func (p *Portfolio) Stateless() bool {
	if p.cur < 0 {
		return false
	}
	st, ok := p.members[p.cur].s.(Stateless)
	return ok && st.Stateless()
}

// Locates asks the runtime for positions when the member of the current
// execution steers by them (guided search).
func (p *Portfolio) Locates() bool {
	if p.cur < 0 {
		return false
	}
	l, ok := p.members[p.cur].s.(Locating)
	return ok && l.Locates()
}

// Member names the member that decides the current execution, e.g.
// "pct d=2", for traces.
func (p *Portfolio) Member() string {
	if p.cur < 0 {
		return ""
	}
	return p.members[p.cur].name
}

// Status lists the members, their executions and their own status.
func (p *Portfolio) Status() string {
	var parts []string
	for _, m := range p.members {
		s := fmt.Sprintf("%s: %d", m.name, m.runs)
		if st, ok := m.s.(Status); ok {
			s += " (" + st.Status() + ")"
		}
		parts = append(parts, s)
	}
	head := fmt.Sprintf("%d schedules; ", p.runs)
	if i := p.prover(); i >= 0 {
		// Name the member whose search is the proof: dpor's, or db's
		// when dpor's is not one (a replay divergence).
		what := "schedule"
		if _, ok := p.members[i].s.(*DPOR); ok {
			what = "trace"
		}
		head = fmt.Sprintf("exhausted: %d schedules, %s explored every %s; ", p.runs, p.members[i].name, what)
	}
	return head + strings.Join(parts, "; ")
}

// Exhausted is true when a member proved the test (see NewExecution);
// otherwise only when every member is, which random never is.
func (p *Portfolio) Exhausted() bool {
	if p.proved() {
		return true
	}
	for _, m := range p.members {
		if !m.out {
			return false
		}
	}
	return true
}

// proved reports whether a member explored every schedule up to
// equivalence.
func (p *Portfolio) proved() bool { return p.prover() >= 0 }

// prover returns the index of the first member whose search is a proof,
// or -1.
func (p *Portfolio) prover() int {
	for i, m := range p.members {
		_, counts := m.s.(EventUser) // counts its own gaps
		if pr, ok := m.s.(Prover); ok && pr.Proved() && (counts || p.gaps == 0) {
			return i
		}
	}
	return -1
}

// Wants asks the runtime for what the member of the current execution
// needs (events on dpor's turns only).
func (p *Portfolio) Wants() Wants {
	if p.cur >= 0 {
		if eu, ok := p.members[p.cur].s.(EventUser); ok {
			return eu.Wants()
		}
	}
	return 0
}

// EndExecution tells the member of the current execution, if it uses
// events.
func (p *Portfolio) EndExecution(end End) {
	if end.Unseen || end.Uncontrolled || end.EarlyTimers || end.Values {
		p.gaps++
	}
	if p.cur >= 0 {
		if eu, ok := p.members[p.cur].s.(EventUser); ok {
			eu.EndExecution(end)
		}
	}
}

// savedPortfolio is the saved state of a Portfolio: where the rotation is,
// and each member's own saved state.
type savedPortfolio struct {
	Format   int           `json:"format"`
	Strategy string        `json:"strategy"`
	Turn     int           `json:"turn"`
	Cur      int           `json:"cur"`
	Runs     int           `json:"runs"`
	Gaps     int           `json:"gaps,omitempty"`
	Members  []savedMember `json:"members"`
}

type savedMember struct {
	Name  string          `json:"name"`
	Runs  int             `json:"runs"`
	Out   bool            `json:"out,omitempty"`
	State json.RawMessage `json:"state"`
}

// Save writes the rotation and every member's state; call it between
// executions. Every member is a Saver.
func (p *Portfolio) Save(w io.Writer) error {
	v := savedPortfolio{Format: stateFormat, Strategy: "portfolio", Turn: p.turn, Cur: p.cur, Runs: p.runs, Gaps: p.gaps}
	for _, m := range p.members {
		sv, ok := m.s.(Saver)
		if !ok {
			return fmt.Errorf("portfolio member %s cannot be saved", m.name)
		}
		var buf bytes.Buffer
		if err := sv.Save(&buf); err != nil {
			return fmt.Errorf("portfolio member %s: %v", m.name, err)
		}
		v.Members = append(v.Members, savedMember{Name: m.name, Runs: m.runs, Out: m.out, State: bytes.TrimSpace(buf.Bytes())})
	}
	return json.NewEncoder(w).Encode(v)
}

// Load restores what Save wrote, into a portfolio created with the same
// options.
func (p *Portfolio) Load(r io.Reader) error {
	var v savedPortfolio
	if err := decodeSaved(r, "portfolio", &v, &v.Format, &v.Strategy); err != nil {
		return err
	}
	if len(v.Members) != len(p.members) {
		return fmt.Errorf("saved portfolio has %d members, not %d", len(v.Members), len(p.members))
	}
	if v.Turn < -1 || v.Turn >= len(p.cycle) || v.Cur < -1 || v.Cur >= len(p.members) {
		return fmt.Errorf("saved portfolio is inconsistent: turn %d, member %d", v.Turn, v.Cur)
	}
	for i, sm := range v.Members {
		m := &p.members[i]
		if sm.Name != m.name {
			return fmt.Errorf("saved portfolio member %d is %s, not %s", i, sm.Name, m.name)
		}
		sv, ok := m.s.(Saver)
		if !ok {
			return fmt.Errorf("portfolio member %s cannot be saved", m.name)
		}
		if err := sv.Load(bytes.NewReader(sm.State)); err != nil {
			return fmt.Errorf("portfolio member %s: %v", m.name, err)
		}
		m.runs, m.out = sm.Runs, sm.Out
	}
	p.turn, p.cur, p.runs, p.gaps = v.Turn, v.Cur, v.Runs, v.Gaps
	return nil
}
