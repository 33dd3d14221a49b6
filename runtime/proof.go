package runtime

import (
	"fmt"
	"strings"

	"github.com/gosct/gosct/strategies"
)

// proofGaps counts the schedules of an exploration that depended on
// something no decision of the strategy chose: code outside the runtime's
// control, steps the fair scheduler took, a timer that could have fired
// early when the strategy was not offered it, a value drawn from the seed
// (a large random draw, a large map's order, the clock). A search that ran
// out of schedules is then no proof: the schedules it did not run are not
// the only ones left.
type proofGaps struct {
	uncontrolled, fair, early, values int
	drawn                             control // the sources of the values
}

// note counts execution e's gaps.
//
//go:norace
func (p *proofGaps) note(e *execution) {
	if e.uncontrolled {
		p.uncontrolled++
	}
	if e.fair.since > 0 {
		p.fair++
	}
	if e.record.earlyWithheld {
		p.early++
	}
	if d := control(e.in.drew.Load()); d != 0 {
		p.values++
		p.drawn |= d
	}
}

// why says what the gaps leave out, "" when there are none.
//
//go:norace
func (p *proofGaps) why() string {
	var why []string
	if p.uncontrolled > 0 {
		why = append(why, fmt.Sprintf("%d schedules ran code outside gosct's control", p.uncontrolled))
	}
	if p.fair > 0 {
		why = append(why, fmt.Sprintf("%d schedules were finished by the fair scheduler, not the search", p.fair))
	}
	if p.early > 0 {
		why = append(why, fmt.Sprintf("in %d schedules a timer could have fired early and the strategy was not offered it", p.early))
	}
	if p.values > 0 {
		why = append(why, fmt.Sprintf("%d schedules read values no decision chose (%s): another --seed reads others", p.values, p.drawn.sources()))
	}
	return strings.Join(why, "; ")
}

// verdict says whether the exploration, over, is a proof: its search ran
// out of schedules (exhausted), the strategy calls that a proof
// (strategies.Prover), and no schedule depended on a gap. A strategy that
// decides from events is told of the gaps at the end of each execution
// (strategies.End) and counts them itself. It returns the test's status,
// rewritten when the search is no proof and the strategy could not know
// why, and the reasons.
//
//go:norace
func (x *explorer) verdict(st string) (status string, unproved bool, why string) {
	if !x.exhausted || x.replayer != nil {
		return st, false, ""
	}
	pr, ok := x.strat.(strategies.Prover)
	proved := ok && pr.Proved()
	if _, eu := x.strat.(strategies.EventUser); !eu {
		if gaps := x.gaps.why(); gaps != "" {
			proved = false
			st = strategies.NotAProof(st, gaps)
		}
	}
	if proved {
		return st, false, ""
	}
	if _, after, found := strings.Cut(st, "; not a proof: "); found {
		why = after
	} else {
		why = "the strategy does not call its end a proof"
	}
	return st, true, why
}

// sources names the sources of drawn values in c, for a user.
//
//go:norace
func (c control) sources() string {
	var s []string
	for _, x := range []struct {
		c    control
		name string
	}{{ctlRand, "math/rand draws"}, {ctlCrypto, "random bytes"}, {ctlMaps, "the order of a range over a map of more than 4 keys"}, {ctlTime, "the clock: time.Now"}} {
		if c&x.c != 0 {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return "values of the seed's"
	}
	return strings.Join(s, ", ")
}
