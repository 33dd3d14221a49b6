package strategies

import (
	"fmt"
	"io"
	"strings"
)

// DFSRBPortfolioMembers are the configurations of the DFS-RB portfolio
// (--dfsrb portfolio). No configuration is best on every program (the
// paper's leave-one-out ranks of the successful ones are uncorrelated), and
// the paper's advice is an embarrassingly parallel portfolio stopping at
// the first error: the four best of its Table 4, which differ in their
// jumps and ratios (rb1 Luby and 0.75, rb2 Luby and 0.90^r, rb3 fixed with
// ncs and 1-r/5, rb4 random and 1-r/5), and rb1 with a random child order,
// its most robust combination ("RB + random search order" found the bug of
// all twelve of its benchmarks, CDx in 9 runs of 10).
var DFSRBPortfolioMembers = []string{"rb1", "rb2", "rb3", "rb4", "rb1,order=random"}

// DFSRBPortfolio runs DFSRBPortfolioMembers in turn, one execution each,
// each with its own seed derived from Options.Seed: the paper's parallel
// portfolio on one processor. Each member keeps its own search; a member
// whose search was a complete DFS (nothing pruned) has explored every
// schedule, and the portfolio then ends, exhausted.
type DFSRBPortfolio struct{ p *Portfolio }

// NewDFSRBPortfolio returns the portfolio of DFS-RB configurations.
func NewDFSRBPortfolio(o Options) *DFSRBPortfolio {
	p := &Portfolio{cur: -1, turn: -1}
	for i, spec := range DFSRBPortfolioMembers {
		so := o
		so.Seed, so.DFSRB = deriveSeed(o.Seed, i), spec
		p.members = append(p.members, member{name: spec, s: NewDFSRB(so)})
		p.cycle = append(p.cycle, i)
	}
	return &DFSRBPortfolio{p}
}

// NewExecution hands the next execution to the next member; false once a
// member has explored every schedule.
func (d *DFSRBPortfolio) NewExecution() bool { return d.p.NewExecution() }

// Next asks the member of the current execution.
func (d *DFSRBPortfolio) Next(pt *Point) int { return d.p.Next(pt) }

// Stateless is true: every member re-executes prefixes.
func (d *DFSRBPortfolio) Stateless() bool { return true }

// Member names the configuration of the current execution, for traces.
func (d *DFSRBPortfolio) Member() string { return d.p.Member() }

// Exhausted reports whether a member explored every schedule.
func (d *DFSRBPortfolio) Exhausted() bool { return d.p.Exhausted() }

// Proved reports whether a member explored every schedule with no replay
// divergence.
func (d *DFSRBPortfolio) Proved() bool { return d.p.proved() }

// Status lists the members and their own status.
func (d *DFSRBPortfolio) Status() string {
	var parts []string
	whole := ""
	for _, m := range d.p.members {
		st := m.s.(*DFSRB)
		if st.Proved() && whole == "" {
			whole = m.name
		}
		parts = append(parts, fmt.Sprintf("%s: %d (%s)", m.name, m.runs, st.Status()))
	}
	head := fmt.Sprintf("%d schedules; ", d.p.runs)
	if whole != "" {
		head = fmt.Sprintf("exhausted: %d schedules, %s pruned nothing (a complete DFS); ", d.p.runs, whole)
	}
	return head + strings.Join(parts, "; ")
}

// Save writes every member's search; Load restores it.
func (d *DFSRBPortfolio) Save(w io.Writer) error { return d.p.Save(w) }

// Load restores what Save wrote, into a portfolio of the same members.
func (d *DFSRBPortfolio) Load(r io.Reader) error { return d.p.Load(r) }

// SkipExecution tells the member whose execution died.
func (d *DFSRBPortfolio) SkipExecution() { d.p.SkipExecution() }
