package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
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

// linknamedClocks gives each body-less function of the file linknamed to
// one of linkedClocks, with its signature, a body returning the hook's
// results: `func now() (int64, int32, int64) { return gosct.LinkTimeNow() }`.
// The function's //go:linkname directive (and a //go:noescape, which a
// function with a body may not have) become plain comments: a body with
// the directive would define time.now itself. Other directives stay.
func (r *fileRewriter) linknamedClocks() {
	targets := map[string]*ast.Comment{} // local name -> its directive
	for _, cg := range r.file.Comments {
		for _, c := range cg.List {
			f := strings.Fields(c.Text)
			if len(f) == 3 && f[0] == "//go:linkname" {
				if _, ok := linkedClocks[f[2]]; ok {
					targets[f[1]] = c
				}
			}
		}
	}
	if len(targets) == 0 {
		return
	}
	for _, d := range r.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body != nil || fd.Recv != nil || fd.Type.TypeParams != nil {
			continue
		}
		dir := targets[fd.Name.Name]
		if dir == nil {
			continue
		}
		target := strings.Fields(dir.Text)[2]
		clk := linkedClocks[target]
		fn, _ := r.info.Defs[fd.Name].(*types.Func)
		if fn == nil || !clockSignature(fn.Type().(*types.Signature), clk.results) {
			continue // not the runtime's signature: the link fails as before
		}
		pos := fd.Type.End()
		ret := &ast.ReturnStmt{Return: pos, Results: []ast.Expr{r.hook(pos, clk.hook)}}
		fd.Body = &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{ret}, Rbrace: pos}
		dir.Text = "// gosct: reads the virtual clock; was " + strings.TrimPrefix(dir.Text, "//")
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
