package static

// Failures and panics, and the writes that lead to them: a failure call or
// a panic is reached through branches; the shared state those branches
// read, and the writes of it in other functions, make the key sequences
// (the thesis's chapter 2: a controlling branch, a reaching definition).
// The branches are those of the call chains to the target (the thesis's
// Eq. 2.1): in its function and in the callers, up to maxChain calls up;
// what they read is followed through parameters to the arguments of the
// calls, and through calls to the values their callees return.

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

var failMethods = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// failureCall reports a call of t.Error, t.Fatal and the like (on
// *testing.T, *testing.B, testing.TB).
func failureCall(c *ssa.CallCommon) (string, bool) {
	var obj *types.Func
	if c.IsInvoke() {
		obj = c.Method
	} else if fn := c.StaticCallee(); fn != nil {
		obj, _ = fn.Object().(*types.Func)
	}
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "testing" || !failMethods[obj.Name()] {
		return "", false
	}
	return obj.Name(), true
}

func (f *finder) failures() {
	type target struct {
		instr ssa.Instruction
		kind  string
		what  string
	}
	var ts []target
	f.each(func(instr ssa.Instruction, l Line) {
		switch in := instr.(type) {
		case *ssa.Panic:
			ts = append(ts, target{instr, "panic", "panic at " + l.String()})
		case ssa.CallInstruction:
			if name, ok := failureCall(in.Common()); ok {
				ts = append(ts, target{instr, "failure", "t." + name + " at " + l.String()})
			}
		}
	})
	for _, t := range ts {
		f.withWrites(t.kind, t.what, []ssa.Instruction{t.instr}, f.key(t.instr, ""))
	}
}

// withWrites adds, for target key tk (at instrs), one sequence per write
// of the shared state the branches leading to it read, write first (the
// thesis's abstraction: a controlling branch and a reaching definition of
// what it reads); or tk alone when there is none.
func (f *finder) withWrites(kind, what string, instrs []ssa.Instruction, tk *Key) {
	defs := f.defsFor(instrs)
	tk.addBefore(defs)
	if len(defs) == 0 {
		f.add(kind, what, tk)
		return
	}
	for _, d := range defs {
		f.add(kind, what+" after the write at "+d.String(), d, tk)
	}
}

// defsFor lists the keys of the writes, in other functions, of the shared
// state the branches leading to instrs read: what may have to happen
// before instrs for them to run (at most maxDefs).
func (f *finder) defsFor(instrs []ssa.Instruction) []*Key {
	var defs []*Key
	have := map[*Key]bool{}
	for _, loc := range f.guardReads(instrs) {
		for _, d := range f.defs[loc] {
			if len(defs) >= maxDefs {
				break
			}
			if sameFunc(d, instrs) {
				continue // the same goroutine's own write
			}
			k := f.key(d, f.p.Op(d))
			if !have[k] {
				have[k] = true
				defs = append(defs, k)
			}
		}
	}
	return defs
}

// addBefore adds ks to k.Before, once each.
func (k *Key) addBefore(ks []*Key) {
	for _, b := range ks {
		dup := b == k
		for _, x := range k.Before {
			dup = dup || x == b
		}
		if !dup {
			k.Before = append(k.Before, b)
		}
	}
}

func sameFunc(d ssa.Instruction, instrs []ssa.Instruction) bool {
	for _, in := range instrs {
		if in.Parent() == d.Parent() {
			return true
		}
	}
	return false
}

// maxChain bounds the calls guardReads climbs from a target.
const maxChain = 4

// guardReads lists the shared locations read by the conditions of the
// branches that dominate instrs in their function, and those that
// dominate the calls of it, and of its callers, up to maxChain calls up
// (the call chains from a goroutine's start to the target).
func (f *finder) guardReads(instrs []ssa.Instruction) []string {
	var out []string
	have := map[string]bool{}
	addFrom := func(instr ssa.Instruction) {
		b := instr.Block()
		for _, blk := range instr.Parent().Blocks {
			if blk == b || !blk.Dominates(b) || len(blk.Instrs) == 0 {
				continue
			}
			if iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If); ok {
				for _, loc := range f.reads(iff.Cond, 0, map[ssa.Value]bool{}) {
					if !have[loc] {
						have[loc] = true
						out = append(out, loc)
					}
				}
			}
		}
	}
	for _, instr := range instrs {
		addFrom(instr)
		seen := map[*ssa.Function]bool{instr.Parent(): true}
		level := []*ssa.Function{instr.Parent()}
		for up := 0; up < maxChain && len(level) > 0; up++ {
			var next []*ssa.Function
			for _, fn := range level {
				for _, c := range f.callers[fn] {
					addFrom(c)
					if g := c.Parent(); !seen[g] {
						seen[g] = true
						next = append(next, g)
					}
				}
			}
			level = next
		}
	}
	sort.Strings(out)
	return out
}

// reads lists the shared locations a value is computed from, within its
// function. seen holds the values already visited: a loop's phis refer to
// each other (and to themselves), and without it the walk went through
// every path of up to 12 of them (groupcache's analysis never ended).
func (f *finder) reads(v ssa.Value, depth int, seen map[ssa.Value]bool) []string {
	if depth > 12 || seen[v] {
		return nil
	}
	seen[v] = true
	var out []string
	rec := func(vs ...ssa.Value) {
		for _, w := range vs {
			out = append(out, f.reads(w, depth+1, seen)...)
		}
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if l := f.loc(v.X); l != "" {
				return []string{l}
			}
			if a, ok := v.X.(*ssa.Alloc); ok && a.Referrers() != nil {
				// A local (a result slot of a function with
				// defers): what is stored there.
				for _, r := range *a.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == a {
						rec(st.Val)
					}
				}
			}
			return out
		}
		rec(v.X)
	case *ssa.BinOp:
		rec(v.X, v.Y)
	case *ssa.Phi:
		rec(v.Edges...)
	case *ssa.Convert:
		rec(v.X)
	case *ssa.ChangeType:
		rec(v.X)
	case *ssa.Field:
		rec(v.X)
	case *ssa.Index:
		rec(v.X)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok && f.returns(c) {
			rec(f.results(c, v.Index)...)
		} else {
			rec(v.Tuple)
		}
	case *ssa.Lookup:
		rec(v.X)
	case *ssa.Parameter:
		// Through the call chain: the arguments of the calls.
		rec(f.arguments(v)...)
	case *ssa.FreeVar:
		rec(f.bindings(v)...)
	case *ssa.Call:
		c := v.Common()
		if b, ok := c.Value.(*ssa.Builtin); ok {
			if b.Name() == "len" || b.Name() == "cap" {
				rec(c.Args...)
			}
			return out
		}
		if f.returns(v) {
			rec(f.results(v, 0)...)
		}
		if fn := c.StaticCallee(); fn != nil {
			if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil && obj.Pkg().Path() == "sync/atomic" && strings.HasPrefix(obj.Name(), "Load") && len(c.Args) > 0 {
				if l := f.loc(c.Args[0]); l != "" {
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// returns reports whether the callees of a call have bodies to look into.
func (f *finder) returns(c *ssa.Call) bool { return len(f.p.Callees(c)) > 0 }

// results lists the values the callees of c return at result index i.
func (f *finder) results(c *ssa.Call, i int) []ssa.Value {
	var out []ssa.Value
	for _, g := range f.p.Callees(c) {
		for _, b := range g.Blocks {
			if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(r.Results) {
				out = append(out, r.Results[i])
			}
		}
	}
	return out
}

// arguments lists the values passed for parameter v at the calls of its
// function (a method's receiver included; an interface call passes it as
// its receiver value).
func (f *finder) arguments(v *ssa.Parameter) []ssa.Value {
	fn := v.Parent()
	i := -1
	for k, p := range fn.Params {
		if p == v {
			i = k
		}
	}
	if i < 0 {
		return nil
	}
	var out []ssa.Value
	for _, c := range f.callers[fn] {
		cc := c.Common()
		switch {
		case cc.IsInvoke() && i == 0:
			out = append(out, cc.Value)
		case cc.IsInvoke():
			if i-1 < len(cc.Args) {
				out = append(out, cc.Args[i-1])
			}
		case i < len(cc.Args):
			out = append(out, cc.Args[i])
		}
	}
	return out
}

// bindings lists the values a closure's free variable v is bound to where
// the closure is made.
func (f *finder) bindings(v *ssa.FreeVar) []ssa.Value {
	fn := v.Parent()
	i := -1
	for k, fv := range fn.FreeVars {
		if fv == v {
			i = k
		}
	}
	var out []ssa.Value
	for _, mc := range f.closures[fn] {
		if i >= 0 && i < len(mc.Bindings) {
			out = append(out, mc.Bindings[i])
		}
	}
	return out
}

// loc names the shared location at addr: a field (of any value of its
// struct type) or a package-level variable; the elements of an array or
// slice share their container's location. "" when unknown.
func (f *finder) loc(addr ssa.Value) string {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if st, ok := derefStruct(a.X.Type()); ok && a.Field < st.NumFields() {
			fld := st.Field(a.Field)
			if inner, ok := a.X.(*ssa.FieldAddr); ok {
				// A field of a struct held by value in another
				// (k.a.mu, k.b.mu): the path tells them apart.
				if l := f.loc(inner); l != "" {
					return l + "." + fld.Name()
				}
			}
			return "field " + f.p.Position(fld.Pos()).String() + " " + fld.Name()
		}
	case *ssa.Global:
		return "global " + f.p.Position(a.Pos()).String() + " " + a.Name()
	case *ssa.IndexAddr:
		if u, ok := a.X.(*ssa.UnOp); ok && u.Op == token.MUL {
			return f.loc(u.X)
		}
		return f.loc(a.X)
	}
	return ""
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// writes lists the shared locations instr writes.
func (f *finder) writes(instr ssa.Instruction) []string {
	switch in := instr.(type) {
	case *ssa.Store:
		if f.p.fresh(in) {
			return nil
		}
		if l := f.loc(in.Addr); l != "" {
			return []string{l}
		}
	case *ssa.MapUpdate:
		if u, ok := in.Map.(*ssa.UnOp); ok && u.Op == token.MUL {
			if l := f.loc(u.X); l != "" {
				return []string{l}
			}
		}
	case *ssa.Call:
		c := in.Common()
		fn := c.StaticCallee()
		if fn == nil || len(c.Args) == 0 {
			return nil
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" || strings.HasPrefix(obj.Name(), "Load") {
			return nil
		}
		if l := f.loc(c.Args[0]); l != "" {
			return []string{l}
		}
	}
	return nil
}
