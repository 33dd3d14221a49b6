package strategies

import "slices"

// State matching (dpor --states, Options.States): the stateful variant of
// DPOR, after Cirisci, Enea, Farzan and Mutluergil ("A pragmatic
// approach to stateful partial order reduction", VMCAI 2023). The runtime
// gives a signature of the program state at every goroutine point
// (Point.State). When a branching point's whole subtree has been explored,
// its signature is remembered with a summary of what the subtree did:
// which goroutine accessed which object, how. A later execution that
// reaches a point with a remembered signature (from another, inequivalent
// schedule: an equivalent one would not have been run) does not branch
// below it: the rest of the execution runs outside the search, as after a
// sleep-set block.
//
// Pruning a subtree hides its races with the steps above the point, which
// DPOR would have reversed. As in the paper's eager algorithm
// (DE-S-POR, with its "traverse each transition once" fix), every access
// of the summary that conflicts with a step of the current schedule above
// the point puts the summary's goroutine in the backtrack set of that
// step's level, or, if that goroutine could not run there, every goroutine
// that could. No happens-before order is kept for the pruned subtree, so
// this is coarser than the races DPOR finds in what it runs.
//
// A match also requires that the goroutines asleep when the subtree was
// explored sleep now too (otherwise the subtree explored less than the
// point needs), and under a preemption bound that the schedule so far has
// no fewer preemptions than it had then.
//
// Objects are named as the runtime's signature names them (MentionHash):
// by the steps whose events named them, so that schedules that reach one
// state by different orders of independent steps name every object alike,
// and a summary recorded in one names the objects of the other.
//
// Soundness: equal states have equal signatures, but the signature leaves
// out the goroutines' local variables and memory no hook touched (see the
// runtime's states.go): where two different states share a signature, a
// match prunes schedules DPOR would have run, and can miss bugs. Hence
// opt-in.
// The states remembered are kept in memory and not saved with the search
// (--state): a resumed search matches only states it explored itself.

// maxVisited bounds the states remembered.
const maxVisited = 1 << 20

// A visit is a remembered state: the goroutines asleep and the
// preemptions when its subtree was explored, and the subtree's summary.
type visit struct {
	sleep []int
	cost  int
	sum   []sumEntry
}

// lvState is what the stateful search knows of a level in the current
// execution.
type lvState struct {
	t   int // index in the trace of the step taken at the level's point
	sig uint64
	sum map[sumEntry]struct{} // accesses of the subtree so far; nil: unknown
	// cur is the paper's current sets: for each goroutine tried at the
	// point, the goroutines that take a step dependent on the step it
	// took there, later, in any execution explored below (itself
	// included); nil entries: unknown (a summary was given up).
	cur map[int][]int
}

// A sumEntry is an access of a summary: goroutine, object name, and how.
type sumEntry struct {
	g    int32
	mode uint8
	name uint64
}

const (
	sumObserve = iota
	sumChange
	sumGlobal
)

// objNames is the history of an object's name in the current execution:
// mention t[i] added h[i] (prefix sums).
type objNames struct {
	t   []int32
	sum []uint64
}

// nameAt is the object's name at the point before step t: the sum of the
// mentions up to that point; 0 if it had none.
func (n *objNames) nameAt(t int) uint64 {
	// The first mention after t.
	i, _ := slices.BinarySearchFunc(n.t, int32(t), func(x, t int32) int {
		if x <= t {
			return -1
		}
		return 1
	})
	if i == 0 {
		return 0
	}
	return n.sum[i-1]
}

func (n *objNames) name() uint64 {
	if len(n.sum) == 0 {
		return 0
	}
	return n.sum[len(n.sum)-1]
}

// mention names the objects of the pending steps at p, as the runtime
// does (MentionHash): each goroutine's step the first time it is described.
func (d *DPOR) mention(p *Point) {
	t := len(d.tr.steps)
	for i, g := range p.Choices {
		if g == Clock {
			continue // its event names no object (it is global)
		}
		for len(d.gsteps) <= g {
			d.gsteps = append(d.gsteps, 0)
			d.named = append(d.named, 0)
		}
		k := d.gsteps[g] + 1
		if d.named[g] == k || i >= len(p.Events) {
			continue
		}
		d.named[g] = k
		for j, a := range p.Events[i].Acc {
			if a.Op == OpGlobal || a.Op == OpBarrier {
				continue
			}
			n := d.names[a.Obj]
			if n == nil {
				n = &objNames{}
				d.names[a.Obj] = n
			}
			h := MentionHash(g, k, j) + n.name()
			if len(n.t) > 0 && int(n.t[len(n.t)-1]) == t {
				n.sum[len(n.sum)-1] = h
			} else {
				n.t, n.sum = append(n.t, int32(t)), append(n.sum, h)
			}
		}
	}
}

// nameAt is the name of the object at a at the point before step t.
func (d *DPOR) nameAt(a uintptr, t int) uint64 {
	if n := d.names[a]; n != nil {
		return n.nameAt(t)
	}
	return 0
}

// tryMatch reports whether the state at p (a new branching point) was
// explored already: then the subtree is pruned, and its summary's
// conflicts with the steps above the point add backtrack points
// (applySummary), as the paper's DE-S-POR replays UpdateCurr over the
// actions below a visited state.
func (d *DPOR) tryMatch(p *Point) bool {
	if !d.states || p.State == 0 {
		return false
	}
	v := d.visited[p.State]
	if v == nil || v.cost > d.cost {
		return false
	}
	for _, g := range v.sleep {
		if !isAsleep(d.sleep, g) {
			return false
		}
	}
	end := len(d.tr.steps)
	d.an.analyse(&d.tr, end, func(int, int) {})
	d.applySummary(v.sum, end)
	d.matchSum, d.matchAt = v.sum, end
	d.matched++
	return true
}

// applySummary adds backtrack points for the accesses of a pruned subtree
// (sum, pruned before step end) that conflict with the steps before it.
// Of the steps an access conflicts with, only those that happen before no
// other such step count (an earlier one is ordered before the access
// through the later one, as in a race); each that branched gets the
// access's goroutine in its backtrack set, or every goroutine it could
// have chosen if that one could not run there. The analysis of the
// execution up to end (the clocks) must be done.
func (d *DPOR) applySummary(sum []sumEntry, end int) {
	add := func(lv *dlevel, g int) {
		if d.within(lv, g) && !slices.Contains(lv.Backtrack, g) && !slices.Contains(lv.Sleep, g) {
			lv.Backtrack = append(lv.Backtrack, g)
		}
	}
	byName := map[uint64][]int{}
	var globals []int
	for i := 0; i < end; i++ {
		s := &d.tr.steps[i]
		if s.flags&stepGlobal != 0 {
			globals = append(globals, i)
			continue
		}
		for _, a := range d.tr.acc[s.a0:s.a1] {
			if o := d.nameAt(a.Obj, end); o != 0 && !slices.Contains(byName[o], i) {
				byName[o] = append(byName[o], i)
			}
		}
	}
	var conf []int
	for _, x := range sum {
		g, o, mode := int(x.g), x.name, x.mode
		conf = conf[:0]
		if mode == sumGlobal {
			for h := range d.an.gLast {
				// The last step of each goroutine before the point.
				for i := end - 1; i >= 0; i-- {
					if slot(int(d.tr.steps[i].g)) == h {
						conf = append(conf, i)
						break
					}
				}
			}
		} else {
			for _, i := range byName[o] {
				if d.stepConflicts(i, o, mode, end) {
					conf = append(conf, i)
				}
			}
			conf = append(conf, globals...)
		}
		for _, i := range conf {
			if int(d.tr.steps[i].g) == g || d.tr.steps[i].level < 0 {
				continue
			}
			later := false
			for _, k := range conf {
				if k != i && d.an.hb(i, k) {
					later = true
					break
				}
			}
			if later {
				continue
			}
			lv := &d.levels[d.tr.steps[i].level]
			if slices.Contains(lv.Enabled, g) {
				add(lv, g)
				continue
			}
			if g == Clock {
				continue // no timer could fire there (as in race)
			}
			for _, q := range lv.Enabled {
				add(lv, q)
			}
		}
	}
}

// stepConflicts reports whether step i conflicts with an access of mode to
// the object named o at the point before step end.
func (d *DPOR) stepConflicts(i int, o uint64, mode uint8, end int) bool {
	s := &d.tr.steps[i]
	if mode == sumGlobal || s.flags&stepGlobal != 0 {
		return true
	}
	for _, a := range d.tr.acc[s.a0:s.a1] {
		if d.nameAt(a.Obj, end) == o && (mode == sumChange || !a.Op.observes()) {
			return true
		}
	}
	return false
}

// summarize adds the steps of the execution that ended to the summaries of
// the levels above them: the steps from the first level this execution
// changed on (earlier ones were added by earlier executions), and the
// summary of the state it matched, if any. The steps are swept from the
// end, collecting (goroutine, object, how) once; each level converts the
// collection to the names its objects had at its point. Past a budget of
// work per execution the upper levels give up their summaries (they will
// not be remembered: fewer matches, never a wrong one).
func (d *DPOR) summarize() {
	from := 0
	if d.changed >= 0 && d.changed < len(d.lst) {
		from = d.lst[d.changed].t
	}
	type touch struct {
		g    int32
		mode uint8
		obj  uintptr
	}
	seen := map[touch]struct{}{}
	var touches []touch
	work := 0
	j := len(d.tr.steps) - 1
	for l := min(len(d.levels), len(d.lst)) - 1; l >= 0; l-- {
		ls := &d.lst[l]
		for lo := max(ls.t, from); j >= lo; j-- {
			s := &d.tr.steps[j]
			if s.flags&stepGlobal != 0 {
				if t := (touch{g: s.g, mode: sumGlobal}); !mapHas(seen, t) {
					seen[t] = struct{}{}
					touches = append(touches, t)
				}
				continue
			}
			for _, a := range d.tr.acc[s.a0:s.a1] {
				t := touch{g: s.g, mode: sumObserve, obj: a.Obj}
				if !a.Op.observes() {
					t.mode = sumChange
				}
				if !mapHas(seen, t) {
					seen[t] = struct{}{}
					touches = append(touches, t)
				}
			}
		}
		if ls.sum == nil {
			continue
		}
		if work += len(touches); work > summaryWork {
			ls.sum = nil
			continue
		}
		for _, t := range touches {
			if t.mode == sumGlobal {
				ls.sum[sumEntry{g: t.g, mode: sumGlobal}] = struct{}{}
				continue
			}
			if o := d.nameAt(t.obj, ls.t); o != 0 { // else named after the point: not above it
				ls.sum[sumEntry{g: t.g, mode: t.mode, name: o}] = struct{}{}
			}
		}
		if d.matchSum != nil && d.matchAt >= ls.t {
			// The matched state's names are those of its point.
			for _, x := range d.matchSum {
				ls.sum[x] = struct{}{}
			}
		}
	}
}

// summaryWork bounds the entries summarize converts per execution.
const summaryWork = 1 << 21

func mapHas[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// remember stores the states of the levels from i on, whose subtrees are
// complete.
func (d *DPOR) remember(i int) {
	for l := i; l < len(d.levels) && l < len(d.lst); l++ {
		ls := &d.lst[l]
		if ls.sum == nil || ls.sig == 0 || len(d.visited) >= maxVisited {
			continue
		}
		sum := make([]sumEntry, 0, len(ls.sum))
		for x := range ls.sum {
			sum = append(sum, x)
		}
		if d.visited[ls.sig] == nil {
			d.visited[ls.sig] = &visit{sleep: slices.Clone(d.levels[l].Sleep), cost: d.levels[l].Cost, sum: sum}
		}
	}
}

// currents adds to the current sets of the levels of this execution (the
// first n steps, those of the search) the goroutines whose later steps
// depend on the step taken at each level: the paper's UpdateCurr, with its
// fix for traversing each transition once (every earlier dependent step
// gets the goroutine, not only the last). Only the steps this execution
// added are swept (those from the first level it changed on); a matched
// state's summary stands for the subtree it pruned.
func (d *DPOR) currents(n int) {
	from := 0
	if d.changed >= 0 && d.changed < len(d.lst) {
		from = d.lst[d.changed].t
	}
	// later holds, by word, the goroutines of the swept steps that
	// observe it and that change it; globals, those with a global step.
	type users struct{ obs, chg []int }
	later := map[uintptr]*users{}
	var globals []int
	note := func(k int) {
		s := &d.tr.steps[k]
		g := int(s.g)
		if s.flags&stepGlobal != 0 {
			addOnce(&globals, g)
			return
		}
		for _, a := range d.tr.acc[s.a0:s.a1] {
			if a.Op == OpGlobal || a.Op == OpBarrier {
				continue
			}
			words(a, func(w uintptr) {
				u := later[w]
				if u == nil {
					u = &users{}
					later[w] = u
				}
				if a.Op.observes() {
					addOnce(&u.obs, g)
				} else {
					addOnce(&u.chg, g)
				}
			})
		}
	}
	eval := func(ls *lvState, i int) {
		s := &d.tr.steps[i]
		c := int(s.g)
		if ls.cur == nil {
			ls.cur = map[int][]int{}
		}
		set := ls.cur[c]
		addOnce(&set, c)
		for _, g := range globals {
			addOnce(&set, g)
		}
		// The steps a bug cut off would have come after it, which
		// disabled them: dependent, as far as anyone can tell.
		for _, g := range d.cutOff {
			addOnce(&set, g)
		}
		if s.flags&stepGlobal != 0 {
			for _, u := range later {
				for _, g := range append(u.obs, u.chg...) {
					addOnce(&set, g)
				}
			}
		} else {
			for _, a := range d.tr.acc[s.a0:s.a1] {
				if a.Op == OpGlobal || a.Op == OpBarrier {
					continue
				}
				words(a, func(w uintptr) {
					if u := later[w]; u != nil {
						for _, g := range u.chg {
							addOnce(&set, g)
						}
						if !a.Op.observes() {
							for _, g := range u.obs {
								addOnce(&set, g)
							}
						}
					}
				})
			}
		}
		if d.matchSum != nil && d.matchAt > i {
			for _, x := range d.matchSum {
				if d.stepConflicts(i, x.name, x.mode, d.matchAt) {
					addOnce(&set, int(x.g))
				}
			}
		}
		ls.cur[c] = set
	}
	l := min(len(d.levels), len(d.lst)) - 1
	for k := n - 1; k >= from; k-- {
		for ; l >= 0 && d.lst[l].t >= k; l-- {
			if t := d.lst[l].t; t == k && t < n && d.levels[l].Kind == Goroutine {
				eval(&d.lst[l], t)
			}
		}
		note(k)
	}
	for ; l >= 0; l-- {
		if t := d.lst[l].t; t < n && d.levels[l].Kind == Goroutine {
			eval(&d.lst[l], t)
		}
	}
}

// closedAt reports whether the paper's stopping rule completes level i: a
// non-empty set T of the goroutines tried there (done) is closed, the
// union of their current sets: T is then persistent, so done is a source
// set (source sets are monotone), and the goroutines left in the
// backtrack set need not be tried. Every goroutine of T must have been
// tried at this point in this search (its current set is known); one
// that a current set names but that was not tried, or could not run
// there, keeps the closure open.
func (d *DPOR) closedAt(i int) bool {
	if i >= len(d.lst) || d.lst[i].cur == nil {
		return false
	}
	lv := &d.levels[i]
	cur := d.lst[i].cur
	tried := func(g int) bool { return g == lv.Chosen || lv.tried(g) }
	for t := range cur {
		if !tried(t) {
			continue
		}
		closure, open := []int{t}, false
		for k := 0; k < len(closure) && !open; k++ {
			set, ok := cur[closure[k]]
			if !ok || !tried(closure[k]) {
				open = true
				break
			}
			for _, g := range set {
				addOnce(&closure, g)
			}
		}
		if !open {
			return true
		}
	}
	return false
}
