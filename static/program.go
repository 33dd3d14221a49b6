// Package static analyzes the code under test before it runs: its SSA
// form (golang.org/x/tools/go/ssa), its call graph, and the map from
// source lines to the scheduling points the rewriter puts there. It runs
// inside the command, never in a test binary.
//
// A Program is built once from the packages the rewriter loaded, before
// it rewrites them (rewrite.Options.Analyze). On it:
//
//   - Op and Program.Lines say which instructions are scheduling points,
//     line by line, as the runtime will see them;
//   - Program.Targets finds where bugs show (failure calls, panics,
//     closes and sends that can panic, lock-order cycles, --target
//     lines) and the key-location sequences that lead there;
//   - Program.Guide computes the distances, in scheduling points, from
//     every line to every key location across calls: the table guided
//     search steers by (strategies.Guide); Guide caches it per build.
package static

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// A Program is the SSA form of the loaded packages and their call graph.
type Program struct {
	Fset *token.FileSet
	SSA  *ssa.Program
	// Funcs are the functions with bodies: those of the loaded
	// packages (anonymous functions and instantiations of generic ones
	// included) and the wrappers SSA synthesizes for them. Ordered by
	// position.
	Funcs []*ssa.Function
	// Files are the source files of the loaded packages.
	Files map[string]bool

	callees   map[ssa.CallInstruction][]*ssa.Function
	callbacks map[ssa.CallInstruction][]*ssa.Function
	isFunc    map[*ssa.Function]bool

	freshMu     sync.Mutex
	freshStores map[*ssa.BasicBlock]map[*ssa.Store]bool
}

// Load builds the SSA form of pkgs (loaded with syntax and types, as
// rewrite.Loaded holds them) and its call graph. A package and its test
// variant are both built when another package imports the former;
// functions of the packages they import, outside pkgs, have no body.
func Load(fset *token.FileSet, pkgs []*packages.Package) (*Program, error) {
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	chosen := choose(pkgs)
	if len(chosen) == 0 {
		return nil, fmt.Errorf("no package to analyze")
	}
	p := &Program{Fset: fset, SSA: prog, Files: map[string]bool{}}
	created := map[*types.Package]bool{}
	for _, lp := range chosen {
		created[lp.Types] = true
		prog.CreatePackage(lp.Types, lp.Syntax, lp.TypesInfo, true)
		for _, f := range lp.Syntax {
			p.Files[fset.File(f.Pos()).Name()] = true
		}
	}
	var imports func(tp *types.Package)
	imports = func(tp *types.Package) {
		for _, imp := range tp.Imports() {
			if !created[imp] {
				created[imp] = true
				prog.CreatePackage(imp, nil, nil, true)
				imports(imp)
			}
		}
	}
	for _, lp := range chosen {
		imports(lp.Types)
	}
	prog.Build()

	p.isFunc = map[*ssa.Function]bool{}
	for _, pkg := range prog.AllPackages() {
		for _, m := range pkg.Members {
			if fn, ok := m.(*ssa.Function); ok {
				p.addFunc(fn)
			}
		}
		for _, m := range pkg.Members {
			if t, ok := m.(*ssa.Type); ok {
				for _, typ := range []types.Type{t.Type(), types.NewPointer(t.Type())} {
					ms := prog.MethodSets.MethodSet(typ)
					for i := 0; i < ms.Len(); i++ {
						if fn := prog.MethodValue(ms.At(i)); fn != nil {
							p.addFunc(fn)
						}
					}
				}
			}
		}
	}
	sort.Slice(p.Funcs, func(i, j int) bool {
		a, b := p.Funcs[i], p.Funcs[j]
		if a.Pos() != b.Pos() {
			return a.Pos() < b.Pos()
		}
		return a.String() < b.String()
	})
	p.callGraph()
	return p, nil
}

// choose keeps the packages to build: every loaded package with types,
// except test mains (p.test), and a package that has a test variant only
// when another chosen package imports it (the test variant has all its
// files).
func choose(pkgs []*packages.Package) []*packages.Package {
	hasTestVariant := map[string]bool{}
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test]") && !strings.HasSuffix(p.PkgPath, "_test") {
			hasTestVariant[p.PkgPath] = true
		}
	}
	usable := func(p *packages.Package) bool {
		return p.Types != nil && p.TypesInfo != nil && !p.IllTyped && !strings.HasSuffix(p.ID, ".test") && len(p.Syntax) > 0
	}
	imported := map[*types.Package]bool{}
	for _, p := range pkgs {
		if usable(p) {
			for _, imp := range p.Types.Imports() {
				imported[imp] = true
			}
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		if !usable(p) {
			continue
		}
		if p.ID == p.PkgPath && hasTestVariant[p.PkgPath] && !imported[p.Types] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// addFunc adds fn and the anonymous functions and instantiations in it.
func (p *Program) addFunc(fn *ssa.Function) {
	if fn == nil || p.isFunc[fn] || fn.Blocks == nil {
		return
	}
	p.isFunc[fn] = true
	p.Funcs = append(p.Funcs, fn)
	for _, anon := range fn.AnonFuncs {
		p.addFunc(anon)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if g, ok := (*op).(*ssa.Function); ok {
					p.addFunc(g)
				}
			}
			if c, ok := instr.(ssa.CallInstruction); ok {
				if g := c.Common().StaticCallee(); g != nil {
					p.addFunc(g)
				}
			}
		}
	}
}

// callGraph resolves the callees of every call, go and defer of Funcs:
// variable type analysis (VTA) over an initial class-hierarchy graph, so
// that an interface or function-value call goes to the implementations
// that can reach it (the thesis's polymorphic treatment of calls).
func (p *Program) callGraph() {
	cg := vta.CallGraph(p.isFunc, cha.CallGraph(p.SSA))
	p.callees = map[ssa.CallInstruction][]*ssa.Function{}
	for fn, n := range cg.Nodes {
		if fn == nil || !p.isFunc[fn] {
			continue
		}
		for _, e := range n.Out {
			p.addCallee(e)
		}
	}
	p.callbacks = map[ssa.CallInstruction][]*ssa.Function{}
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if g := c.Common().StaticCallee(); g != nil && p.isFunc[g] && !containsFunc(p.callees[c], g) {
					p.callees[c] = append(p.callees[c], g)
				}
				if len(p.callees[c]) > 0 {
					continue
				}
				// A function passed to code without a body here
				// (t.Run's subtest, sync.Once.Do, a library's
				// callback) may be called by it.
				for _, a := range c.Common().Args {
					var g *ssa.Function
					switch v := a.(type) {
					case *ssa.Function:
						g = v
					case *ssa.MakeClosure:
						g, _ = v.Fn.(*ssa.Function)
					}
					if g != nil && p.isFunc[g] && !containsFunc(p.callbacks[c], g) {
						p.callbacks[c] = append(p.callbacks[c], g)
					}
				}
			}
		}
	}
}

// Callbacks returns the functions with bodies passed to a call of code
// without one, which it may call: a way into them, but not one that
// must be taken.
func (p *Program) Callbacks(c ssa.CallInstruction) []*ssa.Function { return p.callbacks[c] }

func (p *Program) addCallee(e *callgraph.Edge) {
	if e.Site == nil || e.Callee == nil || e.Callee.Func == nil || !p.isFunc[e.Callee.Func] {
		return
	}
	if !containsFunc(p.callees[e.Site], e.Callee.Func) {
		p.callees[e.Site] = append(p.callees[e.Site], e.Callee.Func)
	}
}

func containsFunc(fs []*ssa.Function, f *ssa.Function) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// Callees returns the functions with bodies that a call, go or defer may
// invoke (none for a call into a package without syntax).
func (p *Program) Callees(c ssa.CallInstruction) []*ssa.Function { return p.callees[c] }

// Position is the source position of pos.
func (p *Program) Position(pos token.Pos) token.Position { return p.Fset.Position(pos) }
