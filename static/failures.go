package static

// Failures and panics, and the writes that lead to them: a failure call or
// a panic is reached through branches; the shared state those branches
// read, and the writes of it in other functions, make the key sequences
// (the thesis's chapter 2: a controlling branch, a reaching definition).

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
	if len(defs) == 0 {
		f.add(kind, what, tk)
		return
	}
	for _, d := range defs {
		f.add(kind, what+" after the write at "+d.String(), d, tk)
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

// guardReads lists the shared locations read by the conditions of the
// branches that dominate instrs, in their function and, one level up, at
// the calls of it.
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
		for _, c := range f.callers[instr.Parent()] {
			addFrom(c)
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
			return nil
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
		rec(v.Tuple)
	case *ssa.Lookup:
		rec(v.X)
	case *ssa.Call:
		c := v.Common()
		if b, ok := c.Value.(*ssa.Builtin); ok {
			if b.Name() == "len" || b.Name() == "cap" {
				rec(c.Args...)
			}
			return out
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
