package static

import (
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Data races, when the race detector is on (Options.Races): a write of a
// shared location (a field, a package-level variable) and another access
// to it, in different functions, with no lock held at both (the lockset
// test of Eraser, within each function). A race detector flags such a
// pair when the two accesses run unordered; the sequence drives one
// goroutine to the write and another to the access.

// maxRacePairs caps the pairs tried per location.
const maxRacePairs = 4

type access struct {
	instr ssa.Instruction
	loc   string
	write bool
	held  map[string]acquire
}

func (f *finder) races() {
	byLoc := map[string][]access{}
	for _, fn := range f.p.Funcs {
		if len(fn.Blocks) == 0 {
			continue
		}
		held := f.heldLocks(fn)
		for _, b := range fn.Blocks {
			h := copyHeld(held[b])
			for _, instr := range b.Instrs {
				if _, ok := f.p.LineOf(instr); ok {
					if a, ok := f.access(instr); ok {
						a.held = copyHeld(h)
						byLoc[a.loc] = append(byLoc[a.loc], a)
					}
				}
				f.lockStep(instr, h)
			}
		}
	}
	locs := make([]string, 0, len(byLoc))
	for l := range byLoc {
		locs = append(locs, l)
	}
	sort.Strings(locs)
	for _, l := range locs {
		as := byLoc[l]
		n := 0
		for _, w := range as {
			if !w.write {
				continue
			}
			for _, a := range as {
				if n >= maxRacePairs {
					break
				}
				if a.instr == w.instr || a.instr.Parent() == w.instr.Parent() || commonLock(w.held, a.held) {
					continue
				}
				n++
				f.add("race", "data race between the write at "+f.lineOf(w.instr)+" and the access at "+f.lineOf(a.instr),
					f.key(w.instr, f.p.Op(w.instr)), f.key(a.instr, f.p.Op(a.instr)))
			}
		}
	}
}

// access reports a read or write of a shared location that is a
// scheduling point.
func (f *finder) access(instr ssa.Instruction) (access, bool) {
	switch in := instr.(type) {
	case *ssa.Store:
		if f.p.Op(in) == "write" {
			if l := f.loc(in.Addr); l != "" {
				return access{instr: instr, loc: l, write: true}, true
			}
		}
	case *ssa.UnOp:
		if in.Op == token.MUL && f.p.Op(in) == "read" {
			if l := f.loc(in.X); l != "" {
				return access{instr: instr, loc: l}, true
			}
		}
	}
	return access{}, false
}

func commonLock(a, b map[string]acquire) bool {
	for l := range a {
		if _, ok := b[l]; ok {
			return true
		}
	}
	return false
}
