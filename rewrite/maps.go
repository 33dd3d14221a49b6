package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Map elements are shared memory wherever the map is (docs/rewrite.md):
// beside the reads and writes of m[k], delete(m, k) and clear(m) write the
// map and a range over it reads it. A concurrent iteration and write is a
// fatal error of Go's runtime ("concurrent map iteration and map write")
// that one goroutine at a time never triggers: the race detector must see
// them. The operation keeps its map operand, with the access on it:
// delete(gosct.Then(gosct.Write(m), m), k).

// A range over a map iterates in an order of the runtime's, which follows
// the execution's inputs instead of Go's per-statement randomization
// (runtime/maps.go), through an iterator:
//
//	for k, v := range m { B }
//
// becomes
//
//	{ gosct_it := gosct.MapRange(gosct.Then(gosct.ReadAt(m, site), m))
//	  for k, v, gosct_ok := gosct_it.Next(); gosct_ok; k, v, gosct_ok = gosct_it.Next() { B } }
//
// The three-clause loop has the range loop's per-iteration variables from
// go1.22 on, and continue runs the post statement, which moves to the next
// entry. The forms that assign to existing variables (k, v = range m), and
// := before go1.22 (variables declared once, outside the loop), receive
// into fresh variables and assign at the top of the body, as the channel
// range does (chans.go).

// mapRange rewrites a range over a map.
func (r *fileRewriter) mapRange(c *astutil.Cursor, n *ast.RangeStmt) {
	m := r.mapAccess(unparen(n.X), "ReadAt")
	pos := n.For
	// Every new token gets the range's position: the printer places
	// comments by the positions of the tokens around them.
	id := func(name string) *ast.Ident { return &ast.Ident{Name: name, NamePos: pos} }
	it := id("gosct_it")
	ok := id("gosct_ok")
	next := func() ast.Expr {
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: it, Sel: id("Next")}, Lparen: pos, Rparen: pos}
	}
	b := &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{it}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{r.hook(pos, "MapRange", m)}}}, Rbrace: n.End()}
	key, val := n.Key, n.Value
	if key == nil {
		key = id("_")
	}
	if val == nil {
		val = id("_")
	}
	isBlank := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == "_" }
	var loop *ast.ForStmt
	if n.Tok != token.ASSIGN && (!r.oldLoopVars || isBlank(key) && isBlank(val)) {
		loop = &ast.ForStmt{
			For:  n.For,
			Init: &ast.AssignStmt{Lhs: []ast.Expr{key, val, ok}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{next()}},
			Cond: ok,
			Post: &ast.AssignStmt{Lhs: []ast.Expr{key, val, ok}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{next()}},
			Body: n.Body,
		}
	} else {
		if n.Tok == token.DEFINE {
			// Before go1.22: one k and one v for the whole loop.
			t := r.typeOf(n.X).Underlying().(*types.Map)
			for _, v := range []struct {
				e ast.Expr
				t types.Type
			}{{key, t.Key()}, {val, t.Elem()}} {
				if isBlank(v.e) {
					continue
				}
				te := r.typeExpr(v.t)
				if te == nil {
					n.X = m // a type not spelled here: Go's order
					return
				}
				b.List = append(b.List, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR,
					Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{v.e.(*ast.Ident)}, Type: te}}}})
			}
		}
		gk, gv := id("gosct_k"), id("gosct_v")
		body := []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{gk, gv, ok}, Tok: token.DEFINE, Rhs: []ast.Expr{next()}},
			&ast.IfStmt{Cond: &ast.UnaryExpr{Op: token.NOT, X: ok},
				Body: &ast.BlockStmt{List: []ast.Stmt{&ast.BranchStmt{Tok: token.BREAK}}}},
		}
		var lhs, rhs []ast.Expr
		if !isBlank(key) {
			lhs, rhs = append(lhs, key), append(rhs, gk)
		} else {
			body = append(body, &ast.AssignStmt{Lhs: []ast.Expr{id("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{gk}})
		}
		if !isBlank(val) {
			lhs, rhs = append(lhs, val), append(rhs, gv)
		} else {
			body = append(body, &ast.AssignStmt{Lhs: []ast.Expr{id("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{gv}})
		}
		if len(lhs) > 0 {
			body = append(body, &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: rhs})
		}
		loop = &ast.ForStmt{For: n.For, Body: &ast.BlockStmt{Lbrace: n.Body.Lbrace, List: append(body, n.Body.List...), Rbrace: n.Body.Rbrace}}
	}
	r.labelInside[b] = len(b.List)
	b.List = append(b.List, loop)
	c.Replace(b)
}

// isMap reports an expression of map type (not a type parameter).
func (r *fileRewriter) isMap(e ast.Expr) bool {
	t := r.typeOf(e)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// mapBuiltinOperand is the map operand of delete(m, k) or clear(m), if
// evaluating it twice is the same as once; else nil.
func (r *fileRewriter) mapBuiltinOperand(call *ast.CallExpr) ast.Expr {
	id, ok := unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	if b, ok := r.info.Uses[id].(*types.Builtin); !ok || b.Name() != "delete" && b.Name() != "clear" {
		return nil
	}
	m := unparen(call.Args[0])
	if !r.isMap(m) || !r.sideEffectFree(m) {
		return nil
	}
	return m
}

// mapAccess is gosct.Then(gosct.hook(m, site), m) for hook ReadAt or
// WriteAt.
func (r *fileRewriter) mapAccess(m ast.Expr, hook string) ast.Expr {
	if !r.sideEffectFree(m) {
		return m
	}
	return r.replaced(r.hook(m.Pos(), "Then", r.hook(m.Pos(), hook, m, r.site(m, m.Pos())), m), m)
}
