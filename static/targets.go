package static

import (
	"fmt"
	"go/token"
	"go/types"
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

// ---- failures and panics, and the writes that lead to them ----

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
				for _, loc := range f.reads(iff.Cond, 0) {
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
// function.
func (f *finder) reads(v ssa.Value, depth int) []string {
	if depth > 12 {
		return nil
	}
	var out []string
	rec := func(vs ...ssa.Value) {
		for _, w := range vs {
			out = append(out, f.reads(w, depth+1)...)
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

// ---- --target file:line ----

func (f *finder) userTarget(spec, dir string) error {
	i := strings.LastIndexByte(spec, ':')
	if i <= 0 {
		return targetErrorf("--target %q: want file:line", spec)
	}
	file, lineStr := spec[:i], spec[i+1:]
	line, err := strconv.Atoi(lineStr)
	if err != nil || line < 1 {
		return targetErrorf("--target %q: want file:line", spec)
	}
	var files []string
	abs := file
	if !filepath.IsAbs(abs) && dir != "" {
		abs = filepath.Join(dir, file)
	}
	for name := range f.p.Files {
		if name == abs || strings.HasSuffix(name, string(filepath.Separator)+filepath.Clean(file)) {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	switch {
	case len(files) == 0:
		return targetErrorf("--target %s: no such file in the packages tested", spec)
	case len(files) > 1:
		return targetErrorf("--target %s: %s names several files (%s): give more of its path", spec, file, strings.Join(files, ", "))
	}
	want := Line{files[0], line}
	var instrs []ssa.Instruction
	f.each(func(instr ssa.Instruction, l Line) {
		if l == want {
			instrs = append(instrs, instr)
		}
	})
	if len(instrs) == 0 {
		return targetErrorf("--target %s: no code on that line", spec)
	}
	k := &Key{Pos: token.Position{Filename: want.File, Line: want.Line}, Instrs: instrs}
	f.keys["target "+want.String()] = k
	f.withWrites("target", "--target "+spec, instrs, k)
	return nil
}
