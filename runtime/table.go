package runtime

import "github.com/gosct/gosct/replay"

// interleaving renders the steps of a detailed execution as the report's
// table (replay.Table): one column per goroutine, named by where it was
// created, one row per step, the last maxRows of them.
//
//go:norace
func interleaving(e *execution, maxRows int) string {
	if len(e.stepLog.rows) == 0 || len(e.gs) == 0 {
		return ""
	}
	return replay.Table(e.stepLog.rows, e.goroutines(), maxRows)
}

// goroutines describes every goroutine of e for a trace: the timeline's
// lanes.
//
//go:norace
func (e *execution) goroutines() []replay.Goroutine {
	out := make([]replay.Goroutine, 0, len(e.gs))
	for _, g := range e.gs {
		out = append(out, replay.Goroutine{ID: g.id, Created: g.creationSite(), State: g.state.String()})
	}
	return out
}
