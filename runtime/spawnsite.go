package runtime

import "github.com/gosct/gosct/strategies"

// Spawned implements strategies.Spawner for the strategies that tag
// goroutines with the go statement that created them (pairwise
// incremental checking): the creation site the runtime keeps for its
// reports, as a user frame. Lock held (the strategy runs under it).
//
//go:norace
func (l *locator) Spawned(id int) (strategies.Frame, bool) {
	gs := *l.gs
	if id <= 0 || id >= len(gs) {
		return strategies.Frame{}, false
	}
	g := gs[id]
	if g.created == 0 {
		return strategies.Frame{}, false
	}
	pcFramesMu.Lock()
	fs := resolvePC(g.created)
	pcFramesMu.Unlock()
	if len(fs) == 0 {
		return strategies.Frame{}, false
	}
	return fs[0], true
}
