package static

import (
	"fmt"
	"go/token"
	"sort"
	"strings"

	"github.com/gosct/gosct/strategies"
	"golang.org/x/tools/go/ssa"
)

// Pairwise incremental checking (Parízek and Kliber, "Checking just pairs
// of threads"; `gosct test --since REV`): from the lines a diff changed
// to the modified fragments (the paper's l_mod), the go statements whose
// goroutines can run them, and the tests that can reach them at all.

// A Change is what a diff changed in one file, in the new version's line
// numbers.
type Change struct {
	// Lines are the added or modified lines.
	Lines []LineRange
	// Removed are the lines after which lines were only deleted (0: at
	// the top of the file); lines that held nothing but blanks and
	// comments are left out by the caller.
	Removed []int
}

// A LineRange is the lines From to To, both included.
type LineRange struct{ From, To int }

// Since is the part of the program a change touches.
type Since struct {
	// Fragments are the modified fragments and the go statements whose
	// goroutines can reach them, for the pairwise strategy.
	Fragments strategies.Fragments
	// Tests are, by the import path of the package under test, the
	// top-level tests whose goroutines (the test's own or those it
	// starts) can reach a fragment. A package whose TestMain or
	// initialization can reach one has "*": every test.
	Tests map[string]map[string]bool
}

// Affected reports whether test of package pkg can reach the change.
func (s *Since) Affected(pkg, test string) bool {
	t := s.Tests[pkg]
	return t["*"] || t[test]
}

// Since maps changes (by absolute file name) to fragments, spawn sites
// and tests. Changes outside the analyzed files are ignored.
func (p *Program) Since(changes map[string]Change) *Since {
	a := &sinceAnalysis{p: p, reaches: p.reachesOp()}
	for _, fn := range p.Funcs {
		a.seedsIn(fn, changes)
	}
	for file, c := range changes {
		for _, l := range c.Removed {
			a.removal(file, l)
		}
	}
	out := &Since{Tests: map[string]map[string]bool{}}
	out.Fragments.Frags = a.merged()
	fragFns := map[*ssa.Function]bool{}
	for _, f := range a.frags {
		fragFns[f.fn] = true
	}
	inCall, inAny := p.reachers(fragFns)
	seen := map[strategies.Frame]bool{}
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok || p.Op(instr) != "go" {
					continue
				}
				entries := append(p.Callees(c), p.Callbacks(c)...)
				for _, e := range entries {
					if !inCall[e] {
						continue
					}
					if l, ok := p.LineOf(instr); ok {
						f := strategies.Frame{File: l.File, Line: l.Line}
						if !seen[f] {
							seen[f] = true
							out.Fragments.Spawns = append(out.Fragments.Spawns, f)
						}
					}
					break
				}
			}
		}
	}
	sort.Slice(out.Fragments.Spawns, func(i, j int) bool {
		a, b := out.Fragments.Spawns[i], out.Fragments.Spawns[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	for fn := range inAny {
		if fn.Parent() != nil || fn.Pkg == nil || fn.Signature.Recv() != nil {
			continue
		}
		name := fn.Name()
		pkg := strings.TrimSuffix(fn.Pkg.Pkg.Path(), "_test")
		switch {
		case name == "TestMain" || name == "init" || strings.HasPrefix(name, "init#"):
			out.add(pkg, "*")
		case strings.HasPrefix(name, "Test") && strings.HasSuffix(p.Position(fn.Pos()).Filename, "_test.go"):
			out.add(pkg, name)
		}
	}
	return out
}

func (s *Since) add(pkg, test string) {
	if s.Tests[pkg] == nil {
		s.Tests[pkg] = map[string]bool{}
	}
	s.Tests[pkg][test] = true
}

type sinceAnalysis struct {
	p       *Program
	reaches map[*ssa.Function]bool
	frags   []fragment
}

// fragment is one l_mod before merging: lines of fn.
type fragment struct {
	fn       *ssa.Function
	file     string
	from, to int
	what     []string
}

// interacts names the thread interaction of instr: its scheduling point,
// or a call of code that reaches one (the seed counts statements; in Go a
// call that locks or sends is as much an interaction as the lock), or a
// call into a module without syntax here, which may. "" if none.
func (a *sinceAnalysis) interacts(instr ssa.Instruction) string {
	if op := a.p.Op(instr); op != "" {
		return op
	}
	c, ok := instr.(ssa.CallInstruction)
	if !ok {
		return ""
	}
	for _, g := range append(a.p.Callees(c), a.p.Callbacks(c)...) {
		if a.reaches[g] {
			return "call " + g.Name()
		}
	}
	if len(a.p.Callees(c)) == 0 {
		if g := c.Common().StaticCallee(); g != nil && g.Pkg != nil && !stdlib(g.Pkg.Pkg.Path()) && g.Blocks == nil {
			return "call " + g.Name()
		}
	}
	return ""
}

func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// seedsIn makes a fragment of every interaction of fn on a changed line.
func (a *sinceAnalysis) seedsIn(fn *ssa.Function, changes map[string]Change) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			l, ok := a.p.LineOf(instr)
			if !ok {
				continue
			}
			c, ok := changes[l.File]
			if !ok || !inRanges(c.Lines, l.Line) {
				continue
			}
			if what := a.interacts(instr); what != "" {
				a.fragmentOf(fn, instr, what)
			}
		}
	}
}

func inRanges(rs []LineRange, line int) bool {
	for _, r := range rs {
		if line >= r.From && line <= r.To {
			return true
		}
	}
	return false
}

// fragmentOf builds the l_mod of one changed interaction, as the paper's
// artifact does: the instruction, the instructions computing its
// operands, those consuming its result; for a lock, up to its unlock
// (the function's end for a deferred one), for an unlock, from its lock.
func (a *sinceAnalysis) fragmentOf(fn *ssa.Function, instr ssa.Instruction, what string) {
	l, _ := a.p.LineOf(instr)
	f := fragment{fn: fn, file: l.File, from: l.Line, to: l.Line, what: []string{what + " " + l.String()}}
	extend := func(in ssa.Instruction) {
		if in == nil || in.Parent() != fn {
			return
		}
		if m, ok := a.p.LineOf(in); ok && m.File == f.file {
			f.from, f.to = min(f.from, m.Line), max(f.to, m.Line)
		}
	}
	var operands func(in ssa.Instruction, depth int)
	operands = func(in ssa.Instruction, depth int) {
		if depth == 0 {
			return
		}
		for _, op := range in.Operands(nil) {
			if d, ok := (*op).(ssa.Instruction); ok && d.Parent() == fn {
				extend(d)
				operands(d, depth-1)
			}
		}
	}
	operands(instr, 2)
	var referrers func(v ssa.Value, depth int)
	referrers = func(v ssa.Value, depth int) {
		if depth == 0 || v.Referrers() == nil {
			return
		}
		for _, r := range *v.Referrers() {
			extend(r)
			if rv, ok := r.(ssa.Value); ok {
				referrers(rv, depth-1)
			}
		}
	}
	if v, ok := instr.(ssa.Value); ok {
		referrers(v, 3)
	}
	if c, ok := instr.(ssa.CallInstruction); ok {
		if name, recv := lockCall(c.Common()); recv != nil {
			a.lockSpan(fn, instr, name, recv, &f)
		}
	}
	a.frags = append(a.frags, f)
}

// lockSpan widens f from a lock to its unlocks, or from an unlock back to
// its locks, on the same mutex in fn.
func (a *sinceAnalysis) lockSpan(fn *ssa.Function, at ssa.Instruction, name string, recv ssa.Value, f *fragment) {
	key := valueKey(recv)
	locking := name == "Lock" || name == "RLock" || name == "TryLock" || name == "TryRLock"
	end := a.endLine(fn)
	found := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || instr == at {
				continue
			}
			n, r := lockCall(c.Common())
			if r == nil || valueKey(r) != key {
				continue
			}
			unlock := n == "Unlock" || n == "RUnlock"
			if locking != unlock {
				continue
			}
			found = true
			if _, deferred := instr.(*ssa.Defer); deferred && locking {
				f.to = max(f.to, end)
				continue
			}
			if m, ok := a.p.LineOf(instr); ok && m.File == f.file {
				if locking && m.Line >= f.from {
					f.to = max(f.to, m.Line)
				}
				if !locking && m.Line <= f.to {
					f.from = min(f.from, m.Line)
				}
			}
		}
	}
	if !found && locking {
		f.to = max(f.to, end)
	}
}

// valueKey names the memory a value points to, as far as one function
// tells it: a field path from a parameter, a free variable or a global.
func valueKey(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.FieldAddr:
		return valueKey(x.X) + "." + itoa(x.Field)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return "*" + valueKey(x.X)
		}
	case *ssa.Global:
		return x.String()
	case *ssa.Parameter:
		return "param " + x.Name()
	case *ssa.FreeVar:
		return "free " + x.Name()
	case *ssa.ChangeType:
		return valueKey(x.X)
	case *ssa.MakeInterface:
		return valueKey(x.X)
	}
	return fmt.Sprintf("%p", v)
}

// endLine is the last line of fn's body.
func (a *sinceAnalysis) endLine(fn *ssa.Function) int {
	if s := fn.Syntax(); s != nil {
		return a.p.Position(s.End()).Line
	}
	end := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if l, ok := a.p.LineOf(instr); ok {
				end = max(end, l.Line)
			}
		}
	}
	return end
}

// removal makes the fragment of lines deleted after line l of file: the
// interactions just before and just after, in the innermost function
// around; the whole function when it has none (the artifact's least
// enclosing fragment, else the method).
func (a *sinceAnalysis) removal(file string, l int) {
	var fn *ssa.Function
	var from, to int
	for _, g := range a.p.Funcs {
		s := g.Syntax()
		if s == nil {
			continue
		}
		start, end := a.p.Position(s.Pos()), a.p.Position(s.End())
		if start.Filename != file || l < start.Line || l >= end.Line {
			continue
		}
		if fn == nil || end.Line-start.Line < to-from {
			fn, from, to = g, start.Line, end.Line
		}
	}
	if fn == nil {
		return
	}
	var before, after ssa.Instruction
	bl, al := -1, -1
	var bw, aw string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			m, ok := a.p.LineOf(instr)
			if !ok || m.File != file {
				continue
			}
			what := a.interacts(instr)
			if what == "" {
				continue
			}
			if m.Line <= l && m.Line > bl {
				before, bl, bw = instr, m.Line, what
			}
			if m.Line > l && (al < 0 || m.Line < al) {
				after, al, aw = instr, m.Line, what
			}
		}
	}
	if before == nil && after == nil {
		a.frags = append(a.frags, fragment{fn: fn, file: file, from: from, to: to, what: []string{fmt.Sprintf("lines removed after %s", Line{file, l})}})
		return
	}
	if before != nil {
		a.fragmentOf(fn, before, bw)
	}
	if after != nil {
		a.fragmentOf(fn, after, aw)
	}
	// The two sides and the gap between them are one fragment.
	if before != nil && after != nil {
		n := len(a.frags)
		a.frags[n-2].to = max(a.frags[n-2].to, a.frags[n-1].to)
		a.frags[n-2].from = min(a.frags[n-2].from, a.frags[n-1].from)
		a.frags[n-2].what = append(a.frags[n-2].what, a.frags[n-1].what...)
		a.frags = a.frags[:n-1]
	}
}

// merged joins overlapping fragments of one function.
func (a *sinceAnalysis) merged() []strategies.Fragment {
	sort.Slice(a.frags, func(i, j int) bool {
		x, y := a.frags[i], a.frags[j]
		if x.file != y.file {
			return x.file < y.file
		}
		return x.from < y.from
	})
	var out []strategies.Fragment
	var fns []*ssa.Function
	for _, f := range a.frags {
		if n := len(out); n > 0 && fns[n-1] == f.fn && out[n-1].File == f.file && f.from <= out[n-1].To {
			out[n-1].To = max(out[n-1].To, f.to)
			out[n-1].What = append(out[n-1].What, f.what...)
			continue
		}
		out = append(out, strategies.Fragment{File: f.file, From: f.from, To: f.to, Func: f.fn.String(), What: f.what})
		fns = append(fns, f.fn)
	}
	return out
}

// reachesOp is the set of functions whose run (calls followed, go
// statements not) reaches a scheduling point.
func (p *Program) reachesOp() map[*ssa.Function]bool {
	direct := map[*ssa.Function]bool{}
	for _, fn := range p.Funcs {
	scan:
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if p.Op(instr) != "" {
					direct[fn] = true
					break scan
				}
			}
		}
	}
	in, _ := p.reachers(direct)
	return in
}

// reachers returns the functions that can run one of targets: inCall
// within the same goroutine (calls, defers and callbacks followed),
// inAny in it or in goroutines they start.
func (p *Program) reachers(targets map[*ssa.Function]bool) (inCall, inAny map[*ssa.Function]bool) {
	callers := map[*ssa.Function][]*ssa.Function{}
	spawners := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				into := callers
				if p.Op(instr) == "go" {
					into = spawners
				}
				for _, g := range p.Callees(c) {
					into[g] = append(into[g], fn)
				}
				for _, g := range p.Callbacks(c) {
					into[g] = append(into[g], fn)
				}
			}
		}
	}
	closure := func(edges ...map[*ssa.Function][]*ssa.Function) map[*ssa.Function]bool {
		seen := map[*ssa.Function]bool{}
		var work []*ssa.Function
		for fn := range targets {
			seen[fn] = true
			work = append(work, fn)
		}
		for len(work) > 0 {
			fn := work[len(work)-1]
			work = work[:len(work)-1]
			for _, e := range edges {
				for _, c := range e[fn] {
					if !seen[c] {
						seen[c] = true
						work = append(work, c)
					}
				}
			}
		}
		return seen
	}
	return closure(callers), closure(callers, spawners)
}
