package replay

import (
	"strings"

	"github.com/gosct/gosct/strategies"
)

// Recorder wraps a Strategy and records every decision it takes, in the
// form a Trace stores. The runtime wraps its strategy in one so that the
// schedule of a buggy execution can be written out.
type Recorder struct {
	// S takes the decisions.
	S strategies.Strategy
	// NoEnabled skips Decision.Enabled, which is only informative and
	// makes long traces much larger.
	NoEnabled bool

	decisions []Decision
}

// NewRecorder returns a Recorder around s.
func NewRecorder(s strategies.Strategy) *Recorder { return &Recorder{S: s} }

// NewExecution forgets the previous execution's decisions.
func (r *Recorder) NewExecution() bool {
	r.decisions = r.decisions[:0]
	return r.S.NewExecution()
}

// Next asks S and records its answer.
func (r *Recorder) Next(p *strategies.Point) int {
	k := r.S.Next(p)
	if k < 0 || k >= len(p.Choices) {
		k = 0
	}
	d := Decision{Kind: p.Kind.String(), Choice: p.Choices[k], G: p.Current}
	if k < len(p.Ops) {
		d.Op, d.Pos = SplitOp(p.Ops[k])
	}
	if !r.NoEnabled {
		d.Enabled = append([]int(nil), p.Choices...)
	}
	r.decisions = append(r.decisions, d)
	return k
}

// Decisions returns a copy of the decisions of the current execution.
func (r *Recorder) Decisions() []Decision {
	return append([]Decision(nil), r.decisions...)
}

// SplitOp splits a Point.Ops entry, "chan send queue.go:41", into the
// operation and its source position. An entry without a position (no
// "file:line" last word) is all operation.
func SplitOp(s string) (op, pos string) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		if strings.Contains(s, ":") {
			return "", s
		}
		return s, ""
	}
	if last := s[i+1:]; strings.Contains(last, ":") {
		return s[:i], last
	}
	return s, ""
}
