package static

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Key is a key location: the instructions at one source position (one
// per SSA function built from it: a package and its test variant share
// their files) that take one kind of operation.
type Key struct {
	Pos token.Position
	// Op is the scheduling point there (see Op), "" if it is none or if
	// any operation on the line will do (a --target line).
	Op     string
	Instrs []ssa.Instruction
	// Before are keys that may have to come before this one: the writes
	// of the shared state the branches leading to it read. Guided
	// search inserts one before it in a key sequence when a descent
	// toward it is stuck (the thesis's refinement).
	Before []*Key
}

// String is "file.go:41".
func (k *Key) String() string {
	return filepath.Base(k.Pos.Filename) + ":" + strconv.Itoa(k.Pos.Line)
}

// A Seq is a sequence of key locations that leads to one possible bug;
// the last key is where the bug shows.
type Seq struct {
	// Kind: "target" (--target), "failure" (t.Error, t.Fatal...),
	// "panic", "deadlock" (lock order), "send" (on a closed channel),
	// "close" (of a closed channel), "race".
	Kind string
	What string
	Keys []*Key
}

// kindRank orders sequences: what the user asked for, then what the
// tests check, then what Go's runtime checks.
var kindRank = map[string]int{"target": 0, "failure": 1, "panic": 2, "deadlock": 3, "send": 4, "close": 5, "race": 6}

// Options says what to look for.
type Options struct {
	// Targets are lines the user names (--target file:line); the file
	// is a path relative to the working directory, or any suffix of
	// an analyzed file's path ("queue.go").
	Targets []string
	// Dir is the directory Targets' relative paths start from.
	Dir string
	// MaxSeqs caps the sequences of each package (default 64), the most
	// important kinds first; a sequence belongs to the package of its
	// last key.
	MaxSeqs int
	// NoAuto leaves out the targets found automatically.
	NoAuto bool
	// Races adds the access pairs a race detector would flag: the
	// runtime's detector is on (--races report or sync).
	Races bool
}

// A TargetError is a --target the packages do not have: bad input, in
// the user's terms.
type TargetError struct{ msg string }

func (e *TargetError) Error() string { return e.msg }

func targetErrorf(format string, args ...any) error {
	return &TargetError{fmt.Sprintf(format, args...)}
}

// maxDefs caps the writes tried before one target.
const maxDefs = 6

// finder collects keys and sequences.
type finder struct {
	p    *Program
	keys map[string]*Key
	seqs []Seq
	seen map[string]bool
	// defs are the writes of each shared location (loc).
	defs map[string][]ssa.Instruction
	// callers are the call sites of each function.
	callers map[*ssa.Function][]ssa.CallInstruction
	// closures are the places each anonymous function is made.
	closures map[*ssa.Function][]*ssa.MakeClosure
}

// Sequences finds the key sequences of the program's possible bugs.
func (p *Program) Sequences(o Options) ([]Seq, error) {
	f := &finder{p: p, keys: map[string]*Key{}, seen: map[string]bool{}}
	f.index()
	for _, t := range o.Targets {
		if err := f.userTarget(t, o.Dir); err != nil {
			return nil, err
		}
	}
	if !o.NoAuto {
		f.failures()
		f.locks()
		f.channels()
		if o.Races {
			f.races()
		}
	}
	sort.SliceStable(f.seqs, func(i, j int) bool { return kindRank[f.seqs[i].Kind] < kindRank[f.seqs[j].Kind] })
	max := o.MaxSeqs
	if max <= 0 {
		max = 64
	}
	perPkg := map[string]int{}
	out := f.seqs[:0]
	for _, s := range f.seqs {
		pkg := seqPackage(s)
		if perPkg[pkg] < max || s.Kind == "target" {
			perPkg[pkg]++
			out = append(out, s)
		}
	}
	return out, nil
}

// seqPackage is the import path of the package where s's bug shows (an
// external test package counts as its package).
func seqPackage(s Seq) string {
	last := s.Keys[len(s.Keys)-1]
	if len(last.Instrs) == 0 || last.Instrs[0].Parent().Pkg == nil {
		return ""
	}
	return strings.TrimSuffix(last.Instrs[0].Parent().Pkg.Pkg.Path(), "_test")
}

// each calls fn for every instruction of an analyzed function that has a
// position in an analyzed file.
func (f *finder) each(fn func(instr ssa.Instruction, l Line)) {
	for _, g := range f.p.Funcs {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				if l, ok := f.p.LineOf(instr); ok {
					fn(instr, l)
				}
			}
		}
	}
}

func (f *finder) index() {
	f.defs = map[string][]ssa.Instruction{}
	f.callers = map[*ssa.Function][]ssa.CallInstruction{}
	f.closures = map[*ssa.Function][]*ssa.MakeClosure{}
	f.each(func(instr ssa.Instruction, _ Line) {
		for _, loc := range f.writes(instr) {
			f.defs[loc] = append(f.defs[loc], instr)
		}
		if c, ok := instr.(ssa.CallInstruction); ok {
			for _, g := range f.p.Callees(c) {
				f.callers[g] = append(f.callers[g], c)
			}
		}
	})
	// Closures have no line of their own (LineOf): every one counts.
	for _, fn := range f.p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if g, ok := mc.Fn.(*ssa.Function); ok {
						f.closures[g] = append(f.closures[g], mc)
					}
				}
			}
		}
	}
}

// key returns the key of instr (merging the instructions of one position
// and operation).
func (f *finder) key(instr ssa.Instruction, op string) *Key {
	pos := f.p.Position(instrPos(instr))
	id := pos.String() + " " + op
	k := f.keys[id]
	if k == nil {
		k = &Key{Pos: pos, Op: op}
		f.keys[id] = k
	}
	for _, in := range k.Instrs {
		if in == instr {
			return k
		}
	}
	k.Instrs = append(k.Instrs, instr)
	return k
}

// add records a sequence once.
func (f *finder) add(kind, what string, keys ...*Key) {
	var id strings.Builder
	id.WriteString(kind)
	for _, k := range keys {
		fmt.Fprintf(&id, "|%s %s", k.Pos, k.Op)
	}
	if f.seen[id.String()] {
		return
	}
	f.seen[id.String()] = true
	f.seqs = append(f.seqs, Seq{Kind: kind, What: what, Keys: keys})
}
