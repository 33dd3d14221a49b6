package static

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Closes and sends that can panic: a close of a channel another close
// (or the same one, run twice) may close first, and a send on a channel a
// close may close first. A channel is identified by the field or variable
// it is loaded from, or the make that created it; failing that, by its
// element type, which then relates it to every channel of that type.

// chanRef is one close or send.
type chanRef struct {
	instr ssa.Instruction
	op    string // Op(instr): "chan close", "chan send", "select"
	id    string // "" when only the type is known
	elem  types.Type
}

func (a chanRef) related(b chanRef) bool {
	if a.id != "" && b.id != "" {
		return a.id == b.id
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
	switch v := ch.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			r.id = f.loc(v.X)
		}
	case *ssa.MakeChan:
		r.id = "make " + f.p.Position(v.Pos()).String()
	}
	return r
}
