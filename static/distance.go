package static

import (
	"container/heap"
	"math"

	"golang.org/x/tools/go/ssa"
)

// Distances are counted in scheduling points over a graph of SSA
// instructions, one node each (the thesis's PFSM, in the runtime's units
// rather than bytecodes):
//
//   - within a function, an instruction leads to the next one, and a
//     block's last instruction to the first of each successor block;
//   - a call leads to the entry of each function it may call (descend),
//     and to the instruction after it at the cost of the cheapest way
//     through a callee (through); a call into code without a body costs
//     nothing to pass, and leads to the functions passed to it (the
//     callbacks of t.Run, sync.Once.Do, a library);
//   - a go statement leads to the entry of the function it starts
//     (spawn): the goroutine it creates reaches what that function
//     reaches.
//
// Entering a node that is a scheduling point costs 1, any other 0. The
// distance of node n to a key is the least cost of a path from n to the
// key, n itself not counted: 0 means the step that starts at n can reach
// the key. Returns are not edges: the runtime knows each goroutine's
// stack, and carries the distance from a frame to its caller with the
// cost to the end of the frame's function (exit), as e-FCA does.
type graph struct {
	p      *Program
	instrs []ssa.Instruction
	fnOf   []int32
	cost   []int32
	lineOf []int32 // index in lines, -1 for none
	entry  map[*ssa.Function]int32
	fns    []*ssa.Function
	lines  []Line
	lineIx map[Line]int32
	// hook[l] says line l holds a scheduling point: a goroutine parked
	// there is parked at one of those.
	hook []bool
	// through[f] is the least cost of a call of fns[f], from entry to a
	// return; exit[n] from node n to its function's return.
	through []int32
	exit    []int32
	// rev is the reverse graph: rev[revAt[n]:revAt[n+1]] are the edges
	// into n.
	revAt []int32
	rev   []edge
}

type edge struct {
	from, w int32
}

const inf = math.MaxInt32

func add(a, b int32) int32 {
	if a == inf || b == inf {
		return inf
	}
	return a + b
}

// newGraph numbers the instructions of every analyzed function and
// computes the through and exit costs.
func newGraph(p *Program) *graph {
	g := &graph{p: p, entry: map[*ssa.Function]int32{}, lineIx: map[Line]int32{}}
	for fi, fn := range p.Funcs {
		g.fns = append(g.fns, fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				n := int32(len(g.instrs))
				if len(g.instrs) == 0 || g.fnOf[n-1] != int32(fi) {
					g.entry[fn] = n
				}
				g.instrs = append(g.instrs, instr)
				g.fnOf = append(g.fnOf, int32(fi))
				c := int32(0)
				if p.Op(instr) != "" {
					c = 1
				}
				g.cost = append(g.cost, c)
				li := int32(-1)
				if l, ok := p.LineOf(instr); ok {
					ix, seen := g.lineIx[l]
					if !seen {
						ix = int32(len(g.lines))
						g.lineIx[l] = ix
						g.lines = append(g.lines, l)
						g.hook = append(g.hook, false)
					}
					li = ix
					if c == 1 {
						g.hook[ix] = true
					}
				}
				g.lineOf = append(g.lineOf, li)
			}
		}
	}
	g.computeThrough()
	g.buildReverse()
	return g
}

// intra calls f for each edge from n within its function, with its cost
// (the through cost of a call included).
func (g *graph) intra(n int32, starts []int32, f func(to, w int32)) {
	instr := g.instrs[n]
	b := instr.Block()
	if instr != b.Instrs[len(b.Instrs)-1] {
		w := g.cost[n+1]
		if c, ok := instr.(ssa.CallInstruction); ok {
			if _, isGo := c.(*ssa.Go); !isGo {
				w = add(w, g.callThrough(c))
			}
		}
		if w != inf {
			f(n+1, w)
		}
		return
	}
	for _, s := range b.Succs {
		m := starts[s.Index]
		f(m, g.cost[m])
	}
}

// callThrough is the least cost of passing call c: the cheapest callee,
// 0 when no callee has a body here.
func (g *graph) callThrough(c ssa.CallInstruction) int32 {
	cs := g.p.Callees(c)
	if len(cs) == 0 {
		return 0
	}
	best := int32(inf)
	for _, fn := range cs {
		if ix, ok := g.fnIndex(fn); ok && g.through[ix] < best {
			best = g.through[ix]
		}
	}
	return best
}

func (g *graph) fnIndex(fn *ssa.Function) (int32, bool) {
	n, ok := g.entry[fn]
	if !ok {
		return 0, false
	}
	return g.fnOf[n], true
}

// blockStarts lists the first node of each block of fn.
func (g *graph) blockStarts(fn *ssa.Function) []int32 {
	out := make([]int32, len(fn.Blocks))
	n := g.entry[fn]
	for i, b := range fn.Blocks {
		out[i] = n
		n += int32(len(b.Instrs))
	}
	return out
}

// computeThrough finds, for every function, the least cost from each of
// its nodes to a return (exit), and from its entry (through). Callees
// come before callers; recursion starts from 0 (a lower bound) and a
// second pass refines it.
func (g *graph) computeThrough() {
	g.through = make([]int32, len(g.fns))
	g.exit = make([]int32, len(g.instrs))
	order := g.calleesFirst()
	for pass := 0; pass < 2; pass++ {
		for _, fi := range order {
			g.exitDistances(fi)
		}
	}
}

// calleesFirst orders the functions so that callees come before their
// callers (a depth-first postorder of the call graph).
func (g *graph) calleesFirst() []int32 {
	seen := make([]bool, len(g.fns))
	var order []int32
	var visit func(fi int32)
	visit = func(fi int32) {
		seen[fi] = true
		for _, b := range g.fns[fi].Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					for _, fn := range g.p.Callees(c) {
						if ix, ok := g.fnIndex(fn); ok && !seen[ix] {
							visit(ix)
						}
					}
				}
			}
		}
		order = append(order, fi)
	}
	for fi := range g.fns {
		if !seen[fi] {
			visit(int32(fi))
		}
	}
	return order
}

// exitDistances runs a reverse shortest-path search within function fi
// from its returns.
func (g *graph) exitDistances(fi int32) {
	fn := g.fns[fi]
	first := g.entry[fn]
	n := int32(0)
	for _, b := range fn.Blocks {
		n += int32(len(b.Instrs))
	}
	starts := g.blockStarts(fn)
	// Reverse intra edges of this function.
	type redge struct{ from, w int32 }
	rev := make([][]redge, n)
	for i := int32(0); i < n; i++ {
		g.intra(first+i, starts, func(to, w int32) {
			rev[to-first] = append(rev[to-first], redge{i, w})
		})
	}
	dist := make([]int32, n)
	for i := range dist {
		dist[i] = inf
	}
	q := &pq{}
	for i := int32(0); i < n; i++ {
		if _, ok := g.instrs[first+i].(*ssa.Return); ok {
			dist[i] = 0
			heap.Push(q, item{0, i})
		}
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if it.d != dist[it.n] {
			continue
		}
		for _, e := range rev[it.n] {
			if d := add(it.d, e.w); d < dist[e.from] {
				dist[e.from] = d
				heap.Push(q, item{d, e.from})
			}
		}
	}
	copy(g.exit[first:first+n], dist)
	g.through[fi] = add(g.cost[first], dist[0])
}

// buildReverse builds the reverse of the whole graph: intra, descend and
// spawn edges.
func (g *graph) buildReverse() {
	count := make([]int32, len(g.instrs)+1)
	var edges []struct{ from, to, w int32 }
	for _, fn := range g.fns {
		starts := g.blockStarts(fn)
		first := g.entry[fn]
		for _, b := range fn.Blocks {
			for range b.Instrs {
				from := first
				first++
				g.intra(from, starts, func(to, w int32) {
					edges = append(edges, struct{ from, to, w int32 }{from, to, w})
				})
				if c, ok := g.instrs[from].(ssa.CallInstruction); ok {
					for _, callee := range append(g.p.Callees(c), g.p.Callbacks(c)...) {
						if e, ok := g.entry[callee]; ok {
							edges = append(edges, struct{ from, to, w int32 }{from, e, g.cost[e]})
						}
					}
				}
			}
		}
	}
	for _, e := range edges {
		count[e.to+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	g.revAt = count
	g.rev = make([]edge, len(edges))
	fill := append([]int32(nil), count[:len(count)-1]...)
	for _, e := range edges {
		g.rev[fill[e.to]] = edge{e.from, e.w}
		fill[e.to]++
	}
}

// distances runs a reverse shortest-path search from the key's nodes over
// the whole graph.
func (g *graph) distances(key []int32) []int32 {
	dist := make([]int32, len(g.instrs))
	for i := range dist {
		dist[i] = inf
	}
	q := &pq{}
	for _, n := range key {
		dist[n] = 0
		heap.Push(q, item{0, n})
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if it.d != dist[it.n] {
			continue
		}
		for _, e := range g.rev[g.revAt[it.n]:g.revAt[it.n+1]] {
			if d := add(it.d, e.w); d < dist[e.from] {
				dist[e.from] = d
				heap.Push(q, item{d, e.from})
			}
		}
	}
	return dist
}

// lineDistances folds node distances into the park, after and start
// distances of each line (strategies.Guide), least over the line's
// nodes.
func (g *graph) lineDistances(dist []int32) (park, after, start []int32) {
	park = fill(len(g.lines))
	after = fill(len(g.lines))
	start = fill(len(g.lines))
	for n := range g.instrs {
		l := g.lineOf[n]
		if l < 0 {
			continue
		}
		instr := g.instrs[n]
		if g.cost[n] == 1 || !g.hook[l] {
			d := dist[n]
			if _, isGo := instr.(*ssa.Go); isGo {
				// Parked at a go statement, the goroutine it
				// started exists already: only the parent's way
				// on counts.
				d = add(g.cost[n+1], dist[n+1])
			}
			park[l] = min(park[l], d)
		}
		switch c := instr.(type) {
		case *ssa.Go:
			for _, fn := range g.p.Callees(c) {
				if e, ok := g.entry[fn]; ok {
					start[l] = min(start[l], add(g.cost[e], dist[e]))
				}
			}
		case *ssa.Call, *ssa.Defer:
			after[l] = min(after[l], add(g.cost[n+1], dist[n+1]))
		}
	}
	return park, after, start
}

// lineExits is the cost to the function's end of each line, parked and
// after a call, and whether the line holds a call.
func (g *graph) lineExits() (park, after []int32, call []bool) {
	park = fill(len(g.lines))
	after = fill(len(g.lines))
	call = make([]bool, len(g.lines))
	for n := range g.instrs {
		l := g.lineOf[n]
		if l < 0 {
			continue
		}
		if g.cost[n] == 1 || !g.hook[l] {
			park[l] = min(park[l], g.exit[n])
		}
		switch g.instrs[n].(type) {
		case *ssa.Call, *ssa.Defer:
			call[l] = true
			after[l] = min(after[l], add(g.cost[n+1], g.exit[n+1]))
		}
	}
	return park, after, call
}

func fill(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = inf
	}
	return s
}

type item struct {
	d int32
	n int32
}

type pq []item

func (q pq) Len() int           { return len(q) }
func (q pq) Less(i, j int) bool { return q[i].d < q[j].d }
func (q pq) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pq) Push(x any)        { *q = append(*q, x.(item)) }
func (q *pq) Pop() any          { old := *q; x := old[len(old)-1]; *q = old[:len(old)-1]; return x }
