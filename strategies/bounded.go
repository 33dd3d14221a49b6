package strategies

// DefaultBound is the largest preemption or delay bound pb and db explore
// when Options.Bound is 0. Three covers every SCTBench bug found by IDB but
// one within its limit, and the iterative search only reaches bound 3 after
// exhausting bounds 0 to 2, so a larger default would rarely matter.
const DefaultBound = 3

// Bounded is iterative preemption bounding ("pb") or iterative delay
// bounding ("db") as SCTBench defines them (Thomson, Donaldson and Betts,
// "Concurrency Testing Using Controlled Schedulers: An Empirical Study",
// ACM TOPC 2016, §2.3 and §2.4).
//
// The preemption count of a schedule counts the switches away from a
// goroutine that was still enabled. The delay count counts, at every point,
// the enabled goroutines that the non-preemptive round-robin scheduler
// (creation order, from the last goroutine, wrapping around) would have run
// before the chosen one; a goroutine that is not enabled is skipped for free.
// The wrap-around runs over the goroutine ids created so far (N = number of
// logical ids seen); since only enabled goroutines count, N never changes a
// count. Select cases are free branches. A yield forces a switch at no cost.
//
// Bounds 0, 1, ... Bound are explored in turn, each by a stateless DFS over
// the schedules of cost <= c; see search for how lower-bound schedules are
// kept from being explored again. The search stops early, exhausted, when a
// pass left no schedule out: the whole tree has then been explored.
type Bounded struct{ search }

// NewPB returns iterative preemption bounding up to o.Bound preemptions.
func NewPB(o Options) *Bounded { return &Bounded{*newSearch("pb", preemptive, bound(o))} }

// NewDB returns iterative delay bounding up to o.Bound delays.
func NewDB(o Options) *Bounded { return &Bounded{*newSearch("db", delaying, bound(o))} }

func bound(o Options) int {
	switch {
	case o.Bound > 0:
		return o.Bound
	case o.Bound < 0:
		return 0
	}
	return DefaultBound
}

func init() {
	register(Info{Name: "pb", Summary: "iterative preemption bounding (--bound)", Systematic: true, Reads: OptBound, Tree: true, Splits: true, Resumes: true, New: func(o Options) Strategy { return NewPB(o) }})
	register(Info{Name: "db", Summary: "iterative delay bounding (--bound)", Systematic: true, Reads: OptBound, Tree: true, Splits: true, Resumes: true, New: func(o Options) Strategy { return NewDB(o) }})
}
