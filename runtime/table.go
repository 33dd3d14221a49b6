package runtime

import "github.com/gosct/gosct/replay"

// interleaving renders the steps of a detailed execution as the report's
// table (replay.Table): one column per goroutine, named by where it was
// created, one row per step, the last maxRows of them.
//
//go:norace
func interleaving(e *execution, maxRows int) string {
	rows := e.stepLog.rows
	if len(rows) == 0 || len(e.gs) == 0 {
		return ""
	}
	// The last timer fired early, what a timing-dependent bug needs, is
	// shown, a few steps before it too, if it is within three tables'
	// worth of the end.
	for i := len(rows) - 1; i >= 0 && maxRows > 0 && i >= len(rows)-3*maxRows; i-- {
		if rows[i].Early {
			maxRows = max(maxRows, len(rows)-i+3)
			break
		}
	}
	return replay.Table(rows, lanes(e.gs), maxRows)
}

// lanes describes every goroutine of gs for a trace: the timeline's
// lanes.
//
//go:norace
func lanes(gs []*goroutine) []replay.Goroutine {
	out := make([]replay.Goroutine, 0, len(gs))
	for _, g := range gs {
		out = append(out, replay.Goroutine{ID: g.id, Created: g.creationSite(), State: g.state.String()})
	}
	return out
}
