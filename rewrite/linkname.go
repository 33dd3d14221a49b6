package rewrite

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// linkedClocks maps Go's clock functions that packages reach with
// //go:linkname (a declaration without body: go-limiter's fasttime reads
// time.now so) to the hook that reads the virtual clock, with the
// function's results.
var linkedClocks = map[string]struct {
	hook    string
	results []types.BasicKind
}{
	"time.now":         {"LinkTimeNow", []types.BasicKind{types.Int64, types.Int32, types.Int64}},
	"runtime.nanotime": {"LinkNanotime", []types.BasicKind{types.Int64}},
	"runtime.walltime": {"LinkWalltime", []types.BasicKind{types.Int64, types.Int32}},
}

// time.runtimeNow and time.runtimeNano, time's own names for these clocks,
// and runtime.nanotime1 are not here: Go's linker lets no other package
// reach them.

// linkedClockNames finds the functions of p that linknamedClocks gives a
// body: each body-less, package-level function linknamed to one of
// linkedClocks, with its signature (local name -> target). The directive
// may be in another file than the declaration, as Go allows, so it is
// found across the package's files, before any of them is rewritten. A
// file that imports "C" is not rewritten: a name whose directive or
// declaration is in one is left alone (the link stays as it was).
func linkedClockNames(p *packages.Package) map[string]string {
	directives := map[string]string{} // local name -> target
	cgo := map[string]bool{}          // local names a cgo file has a part of
	for _, f := range p.Syntax {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if local, target, ok := clockDirective(c); ok {
					directives[local] = target
					cgo[local] = cgo[local] || importsC(f)
				}
			}
		}
	}
	if len(directives) == 0 {
		return nil
	}
	names := map[string]string{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body != nil || fd.Recv != nil || fd.Type.TypeParams != nil {
				continue
			}
			target, ok := directives[fd.Name.Name]
			if !ok || cgo[fd.Name.Name] || importsC(f) {
				continue
			}
			fn, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || !clockSignature(fn.Type().(*types.Signature), linkedClocks[target].results) {
				continue // not the runtime's signature: the link fails as before
			}
			names[fd.Name.Name] = target
		}
	}
	return names
}

// clockDirective reads c as //go:linkname local target, for a target of
// linkedClocks.
func clockDirective(c *ast.Comment) (local, target string, ok bool) {
	f := strings.Fields(c.Text)
	if len(f) != 3 || f[0] != "//go:linkname" {
		return "", "", false
	}
	_, ok = linkedClocks[f[2]]
	return f[1], f[2], ok
}

// linknamedClocks gives each function of the file that linkedClockNames
// found a body returning the hook's results: `func now() (int64, int32,
// int64) { return gosct.LinkTimeNow() }`. Their //go:linkname directives
// in the file, whichever file declares the function, (and a
// //go:noescape, which a function with a body may not have) become plain
// comments: a body with the directive would define time.now itself. Other
// directives stay.
func (r *fileRewriter) linknamedClocks() {
	if len(r.clocks) == 0 {
		return
	}
	for _, cg := range r.file.Comments {
		for _, c := range cg.List {
			if local, target, ok := clockDirective(c); ok && r.clocks[local] == target {
				c.Text = "// gosct: reads the virtual clock; was " + strings.TrimPrefix(c.Text, "//")
				r.edited = true
			}
		}
	}
	for _, d := range r.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body != nil || fd.Recv != nil {
			continue
		}
		target, ok := r.clocks[fd.Name.Name]
		if !ok {
			continue
		}
		pos := fd.Type.End()
		ret := &ast.ReturnStmt{Return: pos, Results: []ast.Expr{r.hook(pos, linkedClocks[target].hook)}}
		fd.Body = &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{ret}, Rbrace: pos}
		if fd.Doc != nil {
			for _, c := range fd.Doc.List {
				if strings.TrimSpace(c.Text) == "//go:noescape" {
					c.Text = "// gosct: was go:noescape"
				}
			}
		}
	}
}

// clockSignature reports whether sig has no parameters and results of
// exactly the basic kinds of results.
func clockSignature(sig *types.Signature, results []types.BasicKind) bool {
	if sig.Params().Len() != 0 || sig.Results().Len() != len(results) {
		return false
	}
	for i, k := range results {
		if !types.Identical(sig.Results().At(i).Type(), types.Typ[k]) {
			return false
		}
	}
	return true
}
