package static

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Closes and sends that can panic: a close of a channel another close
// (or the same one, run twice) may close first, and a send on a channel a
// close may close first. A channel is identified by the field or variable
// it is loaded from, or the make that created it, across functions: a
// parameter by the arguments of the calls (the channel a closer or a
// producer is handed), a closure's captured variable by the variable.
// Failing that, by its element type, which then relates it to every
// channel of that type.

// chanRef is one close or send.
type chanRef struct {
	instr ssa.Instruction
	op    string   // Op(instr): "chan close", "chan send", "select"
	ids   []string // what it may be; none when only the type is known
	elem  types.Type
}

func (a chanRef) related(b chanRef) bool {
	if len(a.ids) > 0 && len(b.ids) > 0 {
		for _, x := range a.ids {
			for _, y := range b.ids {
				if x == y {
					return true
				}
			}
		}
		return false
	}
	return types.Identical(a.elem, b.elem)
}

func (f *finder) channels() {
	var closes, sends []chanRef
	f.each(func(instr ssa.Instruction, _ Line) {
		switch in := instr.(type) {
		case *ssa.Call:
			c := in.Common()
			if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(c.Args) == 1 {
				closes = append(closes, f.chanRef(instr, "chan close", c.Args[0]))
			}
		case *ssa.Send:
			sends = append(sends, f.chanRef(instr, "chan send", in.Chan))
		case *ssa.Select:
			for _, st := range in.States {
				if st.Dir == types.SendOnly {
					sends = append(sends, f.chanRef(instr, "select", st.Chan))
				}
			}
		}
	})
	for _, c := range closes {
		for _, c2 := range closes {
			if c.related(c2) {
				f.add("close", "close of a closed channel at "+f.lineOf(c2.instr), f.key(c.instr, c.op), f.key(c2.instr, c2.op))
			}
		}
		for _, s := range sends {
			if c.related(s) {
				f.add("send", "send on a closed channel at "+f.lineOf(s.instr), f.key(c.instr, c.op), f.key(s.instr, s.op))
			}
		}
	}
}

func (f *finder) chanRef(instr ssa.Instruction, op string, ch ssa.Value) chanRef {
	r := chanRef{instr: instr, op: op}
	if t, ok := ch.Type().Underlying().(*types.Chan); ok {
		r.elem = t.Elem()
	}
	var unknown bool
	f.chanIDs(ch, 0, map[ssa.Value]bool{}, func(id string) {
		if id == "" {
			unknown = true
		} else if !containsString(r.ids, id) {
			r.ids = append(r.ids, id)
		}
	})
	if unknown {
		// One way in says nothing: the type decides.
		r.ids = nil
	}
	return r
}

// chanIDs calls add with what the channel value v may be, "" for a way
// in that gives no identity.
func (f *finder) chanIDs(v ssa.Value, depth int, seen map[ssa.Value]bool, add func(string)) {
	if seen[v] {
		return
	}
	if depth > 8 {
		add("")
		return
	}
	seen[v] = true
	rec := func(vs ...ssa.Value) {
		if len(vs) == 0 {
			add("")
		}
		for _, w := range vs {
			f.chanIDs(w, depth+1, seen, add)
		}
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			add("")
			return
		}
		switch x := v.X.(type) {
		case *ssa.Alloc:
			// A local variable a closure captures.
			add("var " + f.p.Position(x.Pos()).String())
		case *ssa.FreeVar:
			for _, b := range f.bindings(x) {
				if a, ok := b.(*ssa.Alloc); ok {
					add("var " + f.p.Position(a.Pos()).String())
				} else {
					add("")
				}
			}
		default:
			if l := f.loc(v.X); l != "" {
				add(l)
			} else {
				add("")
			}
		}
	case *ssa.MakeChan:
		add("make " + f.p.Position(v.Pos()).String())
	case *ssa.Parameter:
		rec(f.arguments(v)...)
	case *ssa.FreeVar:
		rec(f.bindings(v)...)
	case *ssa.Phi:
		rec(v.Edges...)
	case *ssa.ChangeType:
		rec(v.X)
	case *ssa.Convert:
		rec(v.X)
	default:
		add("")
	}
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
