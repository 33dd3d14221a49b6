package static

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Lock-order deadlocks: for every lock A held (on all paths) where a lock
// B is taken, in the same function or in a function it calls, the order
// A before B: the edges of the lock graph. Two orders A before B and B
// before A give the thesis's four-location sequence: a goroutine takes A,
// another takes B, the first then waits for B and the second for A. A
// cycle of three locks in the graph (A before B, B before C, C before A)
// gives six: three goroutines each take their first lock, then each waits
// for the next one's. Taking a held mutex again gives a two-location
// sequence. Locks are identified by the field or variable they are (or
// point to): locks whose identity is not known this way are left out.

// acquire is one lock acquisition.
type acquire struct {
	lock  string
	write bool // not a read lock
	at    ssa.Instruction
}

// order is "a held when b taken".
type order struct {
	a, b acquire
}

func (f *finder) locks() {
	acqs := map[*ssa.Function][]acquire{} // taken in the function itself
	writeSites := map[string][]ssa.Instruction{}
	for _, fn := range f.p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if a, ok := f.acquisition(instr); ok {
					acqs[fn] = append(acqs[fn], a)
					if a.write {
						writeSites[a.lock] = append(writeSites[a.lock], instr)
					}
				}
			}
		}
	}
	// Transitive acquisitions of each function, through its callees.
	memo := map[*ssa.Function][]acquire{}
	var taken func(fn *ssa.Function, depth int) []acquire
	taken = func(fn *ssa.Function, depth int) []acquire {
		if as, ok := memo[fn]; ok {
			return as
		}
		memo[fn] = nil // recursion: what is known so far
		out := append([]acquire(nil), acqs[fn]...)
		if depth < 8 {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok {
						if _, isGo := c.(*ssa.Go); isGo {
							continue
						}
						for _, g := range f.p.Callees(c) {
							out = append(out, taken(g, depth+1)...)
						}
					}
				}
			}
		}
		if len(out) > 64 {
			out = out[:64]
		}
		memo[fn] = out
		return out
	}
	var orders []order
	for _, fn := range f.p.Funcs {
		held := f.heldLocks(fn)
		for _, b := range fn.Blocks {
			h := copyHeld(held[b])
			for _, instr := range b.Instrs {
				if a, ok := f.acquisition(instr); ok {
					for _, x := range sortedHeld(h) {
						orders = append(orders, order{x, a})
					}
				} else if c, ok := instr.(ssa.CallInstruction); ok && len(h) > 0 {
					if _, isGo := c.(*ssa.Go); !isGo {
						for _, g := range f.p.Callees(c) {
							for _, a := range taken(g, 0) {
								for _, x := range sortedHeld(h) {
									orders = append(orders, order{x, a})
								}
							}
						}
					}
				}
				f.lockStep(instr, h)
			}
		}
	}
	f.lockCycles3(orders)
	for i, o1 := range orders {
		if o1.a.lock == o1.b.lock {
			switch {
			case o1.a.write || o1.b.write:
				f.add("deadlock", "lock taken again at "+f.lineOf(o1.b.at), f.lockKey(o1.a), f.lockKey(o1.b))
			default:
				// A read lock taken again deadlocks when a writer
				// waits in between (RWMutex's writer preference).
				for _, w := range writeSites[o1.a.lock] {
					f.add("deadlock", "read lock taken again at "+f.lineOf(o1.b.at)+" with a writer waiting", f.lockKey(o1.a), f.key(w, f.p.Op(w)), f.lockKey(o1.b))
					break
				}
			}
			continue
		}
		for _, o2 := range orders[i+1:] {
			if o2.a.lock == o1.b.lock && o2.b.lock == o1.a.lock && (o1.b.write || o2.b.write) {
				f.add("deadlock", "lock order "+f.lineOf(o1.a.at)+"→"+f.lineOf(o1.b.at)+" against "+f.lineOf(o2.a.at)+"→"+f.lineOf(o2.b.at),
					f.lockKey(o1.a), f.lockKey(o2.a), f.lockKey(o1.b), f.lockKey(o2.b))
			}
		}
	}
}

// maxCycles3 caps the three-lock cycles of a program.
const maxCycles3 = 16

// lockCycles3 adds the sequences of the cycles of three locks of the lock
// graph, each once (from its least lock).
func (f *finder) lockCycles3(orders []order) {
	from := map[string][]order{}
	for _, o := range orders {
		if o.a.lock != o.b.lock {
			from[o.a.lock] = append(from[o.a.lock], o)
		}
	}
	// x's goroutine, holding x.a, waits for x.b, which y's holds: it
	// blocks unless both are read locks.
	blocks := func(x, y order) bool { return x.b.write || y.a.write }
	n := 0
	for _, o1 := range orders {
		if o1.a.lock == o1.b.lock {
			continue
		}
		for _, o2 := range from[o1.b.lock] {
			if o2.b.lock == o1.a.lock || o2.a.lock < o1.a.lock {
				continue
			}
			for _, o3 := range from[o2.b.lock] {
				if o3.b.lock != o1.a.lock || o3.a.lock < o1.a.lock || n >= maxCycles3 {
					continue
				}
				if !blocks(o1, o2) || !blocks(o2, o3) || !blocks(o3, o1) {
					continue
				}
				n++
				f.add("deadlock", "lock order "+f.lineOf(o1.a.at)+"→"+f.lineOf(o1.b.at)+", "+f.lineOf(o2.a.at)+"→"+f.lineOf(o2.b.at)+", "+f.lineOf(o3.a.at)+"→"+f.lineOf(o3.b.at),
					f.lockKey(o1.a), f.lockKey(o2.a), f.lockKey(o3.a), f.lockKey(o1.b), f.lockKey(o2.b), f.lockKey(o3.b))
			}
		}
	}
}

func (f *finder) lineOf(instr ssa.Instruction) string {
	if l, ok := f.p.LineOf(instr); ok {
		return l.String()
	}
	return "?"
}

func (f *finder) lockKey(a acquire) *Key { return f.key(a.at, f.p.Op(a.at)) }

// acquisition reports a lock taken by instr (Lock, RLock; TryLock never
// blocks).
func (f *finder) acquisition(instr ssa.Instruction) (acquire, bool) {
	c, ok := instr.(*ssa.Call)
	if !ok {
		return acquire{}, false
	}
	name, recv := lockCall(c.Common())
	if recv == nil {
		return acquire{}, false
	}
	switch name {
	case "Lock", "RLock":
		if l := f.lockID(recv); l != "" {
			return acquire{lock: l, write: name == "Lock", at: instr}, true
		}
	}
	return acquire{}, false
}

// lockCall is the method name and receiver of a call of a sync.Mutex or
// sync.RWMutex method.
func lockCall(c *ssa.CallCommon) (string, ssa.Value) {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 {
		return "", nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return "", nil
	}
	sig := obj.Type().(*types.Signature)
	if sig.Recv() == nil {
		return "", nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || (n.Obj().Name() != "Mutex" && n.Obj().Name() != "RWMutex") {
		return "", nil
	}
	return obj.Name(), c.Args[0]
}

// lockID names the mutex a receiver points to: a field or package-level
// variable holding the mutex, or holding a pointer to it.
func (f *finder) lockID(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.FieldAddr, *ssa.Global:
		return f.loc(x)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if l := f.loc(x.X); l != "" {
				return "*" + l
			}
		}
	}
	return ""
}

// heldLocks computes the locks held on every path into each block (a
// must analysis), with the acquisition that took each.
func (f *finder) heldLocks(fn *ssa.Function) map[*ssa.BasicBlock]map[string]acquire {
	in := map[*ssa.BasicBlock]map[string]acquire{}
	out := map[*ssa.BasicBlock]map[string]acquire{}
	for changed, iter := true, 0; changed && iter < 10; iter++ {
		changed = false
		for _, b := range fn.Blocks {
			var h map[string]acquire
			if b.Index == 0 {
				h = map[string]acquire{}
			} else {
				first := true
				for _, p := range b.Preds {
					po, ok := out[p]
					if !ok {
						continue // not computed yet: the top
					}
					if first {
						h, first = copyHeld(po), false
						continue
					}
					for k := range h {
						if _, ok := po[k]; !ok {
							delete(h, k)
						}
					}
				}
				if h == nil {
					h = map[string]acquire{}
				}
			}
			if old, ok := in[b]; !ok || len(old) != len(h) {
				changed = true
			}
			in[b] = h
			o := copyHeld(h)
			for _, instr := range b.Instrs {
				f.lockStep(instr, o)
			}
			out[b] = o
		}
	}
	return in
}

// lockStep applies instr to the held set h.
func (f *finder) lockStep(instr ssa.Instruction, h map[string]acquire) {
	c, ok := instr.(*ssa.Call)
	if !ok {
		return
	}
	name, recv := lockCall(c.Common())
	if recv == nil {
		return
	}
	l := f.lockID(recv)
	if l == "" {
		return
	}
	switch name {
	case "Lock", "RLock":
		h[l] = acquire{lock: l, write: name == "Lock", at: instr}
	case "Unlock", "RUnlock":
		delete(h, l)
	}
}

func copyHeld(h map[string]acquire) map[string]acquire {
	o := make(map[string]acquire, len(h))
	for k, v := range h {
		o[k] = v
	}
	return o
}

func sortedHeld(h map[string]acquire) []acquire {
	out := make([]acquire, 0, len(h))
	for _, a := range h {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lock < out[j].lock })
	return out
}
