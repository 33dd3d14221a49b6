package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Implicit accesses: the program reads or writes a variable without an
// expression that says so. They are shadow-only (race-checked, not
// scheduling points: the statement around them has its own):
//
//   - a range loop assigns its key and value at each iteration: before
//     go1.22 (the file's version) the variables a `:=` range declares are
//     one per loop, so a goroutine that captured one races with the next
//     iteration's write; with `=` the loop writes whatever variables it
//     names, in any version;
//   - a return reads the function's named results (a bare return) or
//     writes them (a return with values) where a closure or a pointer
//     shares them.

// funcPush and funcPop keep r.funcs, the enclosing function types, for
// postReturn.
func (r *fileRewriter) funcPush(n ast.Node) {
	switch n := n.(type) {
	case *ast.FuncDecl:
		r.funcs = append(r.funcs, n.Type)
	case *ast.FuncLit:
		r.funcs = append(r.funcs, n.Type)
	}
}

func (r *fileRewriter) funcPop(n ast.Node) {
	switch n.(type) {
	case *ast.FuncDecl, *ast.FuncLit:
		if len(r.funcs) > 0 {
			r.funcs = r.funcs[:len(r.funcs)-1]
		}
	}
}

// rangeWrites puts a shadow write of each variable the range loop n
// assigns that another goroutine may reach at the start of its body.
func (r *fileRewriter) rangeWrites(n *ast.RangeStmt) {
	if n.Body == nil {
		return
	}
	var pre []ast.Stmt
	for _, x := range []ast.Expr{n.Key, n.Value} {
		if x == nil {
			continue
		}
		x = unparen(x)
		if id, ok := x.(*ast.Ident); ok && id.Name == "_" {
			continue
		}
		if n.Tok == token.DEFINE {
			id, ok := x.(*ast.Ident)
			if !ok || !r.oldLoopVars {
				continue
			}
			v, _ := r.info.Defs[id].(*types.Var)
			if v == nil || !r.sharedLocals[v] || untracked(v.Type()) {
				continue
			}
			pre = append(pre, exprStmt(r.hook(id.Pos(), "ShadowWrite", addr(ident(id.Name)), r.site(id, id.Pos()))))
			continue
		}
		tv, ok := r.info.Types[x]
		if !ok || untracked(tv.Type) || !r.sharedMem(x) || !sideEffectFree(r.info, x) {
			continue
		}
		if ix, ok := x.(*ast.IndexExpr); ok && r.isMap(ix.X) {
			pre = append(pre, exprStmt(r.hook(x.Pos(), "ShadowWrite", ix.X, r.site(x, x.Pos()))))
			continue
		}
		if tv.Addressable() || isStar(x) {
			pre = append(pre, exprStmt(r.hook(x.Pos(), "ShadowWrite", addr(x), r.site(x, x.Pos()))))
		}
	}
	if len(pre) > 0 {
		n.Body.List = append(pre, n.Body.List...)
	}
}

// postReturn puts before a return the shadow accesses of the named
// results it reads (bare) or writes (with values), for those another
// goroutine may reach.
func (r *fileRewriter) postReturn(c *astutil.Cursor, n *ast.ReturnStmt) {
	if len(r.funcs) == 0 || c.Index() < 0 {
		return
	}
	ft := r.funcs[len(r.funcs)-1]
	if ft.Results == nil {
		return
	}
	hook := "ShadowRead"
	if len(n.Results) > 0 {
		hook = "ShadowWrite"
	}
	scope := r.innermostScope(n.Pos())
	for _, f := range ft.Results.List {
		for _, name := range f.Names {
			v, _ := r.info.Defs[name].(*types.Var)
			if v == nil || name.Name == "_" || !r.sharedLocals[v] || untracked(v.Type()) {
				continue
			}
			// A return with values may stand where the result's name is
			// shadowed: &name would be another variable.
			if scope != nil {
				if _, obj := scope.LookupParent(name.Name, n.Pos()); obj != v {
					continue
				}
			}
			c.InsertBefore(exprStmt(r.hook(n.Pos(), hook, addr(ident(name.Name)), r.siteText(name.Name, n.Pos()))))
		}
	}
}

// innermostScope is the scope of the file that contains pos, or nil.
func (r *fileRewriter) innermostScope(pos token.Pos) *types.Scope {
	fs := r.info.Scopes[r.file]
	if fs == nil {
		return nil
	}
	return fs.Innermost(pos)
}
