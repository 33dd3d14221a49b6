package strategies

// DFS is the unbounded stateless depth-first search ("dfs"). Every kind of
// point is a branch. Children are tried in Maple's order (see mapleOrder),
// so the first schedule is the non-preemptive round-robin one; select cases
// in ascending index. The search keeps one level per branching point of the
// current schedule, never the set of explored schedules.
//
// Unbounded DFS spends its budget on late preemptions near the end of long
// schedules (SCTBench §2.2); prefer db for bug finding and dfs for proofs on
// small tests: when NewExecution returns false every schedule was explored.
type DFS struct{ search }

// NewDFS returns a depth-first search. It has no random choices; o is
// unused.
func NewDFS(o Options) *DFS {
	return &DFS{*newSearch("dfs", free, 0)}
}

func init() {
	register(Info{Name: "dfs", Summary: "depth-first search of every schedule", Systematic: true, Tree: true, Splits: true, Resumes: true, New: func(o Options) Strategy { return NewDFS(o) }})
}
