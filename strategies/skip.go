package strategies

// Skipper is implemented by strategies that need to be told that the
// execution they prepared never finished: its process died (os.Exit, a
// fatal error of Go's) after the strategy's state was saved between
// NewExecution and the execution. The state is loaded (Saver) into a fresh
// strategy, SkipExecution is called, and the next NewExecution must not
// choose that schedule again. A systematic search (dfs, pb, db) needs no
// call: its Load already takes the saved prefix as explored.
type Skipper interface {
	SkipExecution()
}

// SkipExecution does nothing: the dead execution was counted when
// NewExecution prepared it, and the next one draws from a stream of its
// own.
func (r *Random) SkipExecution() {}

// SkipExecution does nothing: NewExecution drew the dead execution's
// priorities and change points, and the next one draws new ones.
func (s *PCT) SkipExecution() {}

// SkipExecution counts the dead execution as pruned below its prefix:
// nothing is known of the subtree there, so the next NewExecution
// backtracks from the prefix as after an early backtrack, and this
// iteration is no longer a complete DFS (it would otherwise take the levels
// the dead execution did not reach as stale, or the search as exhausted).
func (s *DFSRB) SkipExecution() { s.pruned = true }

// SkipExecution tells the member that prepared the dead execution.
func (p *Portfolio) SkipExecution() {
	if p.cur < 0 {
		return
	}
	if sk, ok := p.members[p.cur].s.(Skipper); ok {
		sk.SkipExecution()
	}
}
