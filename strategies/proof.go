package strategies

import "strings"

// Proofs. A systematic search that runs out of schedules to try is a proof
// within gosct's model (docs/limitations.md, "Proofs") only when nothing
// it did not explore could change an outcome: a bound that cut schedules,
// a replay that diverged, a state matched instead of explored, steps no
// strategy chose, values the search did not vary. Such a search says so:
// its Status does not read "exhausted" unqualified (NotAProof), Proved is
// false, and the command prints "not a proof" instead of "all passed".

// Prover is implemented by the strategies whose search can end (dfs, pb,
// db, dfsrb, dpor, pairwise, the portfolio). Proved reports whether the
// search is exhausted and a proof as far as the strategy knows: every
// schedule of the model explored (dpor: one per Mazurkiewicz trace), with
// none left out for a bound and no replay divergence. The runtime adds
// what only it knows (uncontrolled code, values drawn from the seed, steps
// of the fair scheduler) to the test's verdict.
type Prover interface {
	Proved() bool
}

// NotAProof rewrites status, the Status of a search that ran out of
// schedules to try, for a search that is not a proof, and says why: a
// leading "exhausted: " becomes "searched to the end: " (a bounded
// search's "exhausted within bound N" stays), and "not a proof: why"
// follows.
func NotAProof(status, why string) string {
	if rest, ok := strings.CutPrefix(status, "exhausted: "); ok {
		status = "searched to the end: " + rest
	}
	if strings.Contains(status, "; not a proof: ") {
		return status + "; " + why
	}
	return status + "; not a proof: " + why
}

// Proved reports whether dfs, pb or db explored every schedule: exhausted,
// no child left out for the bound, no replay divergence.
func (s *search) Proved() bool { return s.done && !s.clipped && s.diverged == 0 }

// Proved reports whether DFS-RB's last threshold's search completed
// without pruning (a complete DFS) and replayed every prefix.
func (s *DFSRB) Proved() bool { return s.done && s.diverged == 0 }

// Proved is false: pairwise checking explores pairs of goroutines around a
// change, taking the version before it as checked; its end is no proof
// that the test has no bug.
func (p *Pairwise) Proved() bool { return false }

// Proved reports whether a member proved the test (dpor, see
// NewExecution).
func (p *Portfolio) Proved() bool { return p.proved() }
