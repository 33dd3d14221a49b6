package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// send builds name(ch, v) for Send and OnSend. When v's type is not the
// element type (a concrete value sent on a channel of interfaces) the
// type argument cannot be inferred and is given explicitly; nil if it
// cannot be spelled here.
func (r *fileRewriter) send(pos token.Pos, name string, ch, v ast.Expr) *ast.CallExpr {
	elem := chanElem(r.typeOf(ch))
	vt := r.typeOf(v)
	if elem != nil && vt != nil && !isUntyped(vt) && !types.Identical(vt, elem) {
		return r.hookInst(pos, name, elem, ch, v)
	}
	return r.hook(pos, name, ch, v)
}

// postRange rewrites for v := range ch into a loop receiving with Recv2.
// From go1.22 on, a three-clause loop has the range loop's per-iteration
// variable; before, the variable is declared once, outside the loop, and
// assigned only when a value was received, as the range loop does.
func (r *fileRewriter) postRange(c *astutil.Cursor, n *ast.RangeStmt) {
	if r.isMap(n.X) {
		r.mapRange(c, n)
		return
	}
	elem := chanElem(r.typeOf(n.X))
	if elem == nil {
		return
	}
	pos := n.For
	ch := ident("gosct_ch")
	ok := ident("gosct_ok")
	b := &ast.BlockStmt{List: []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ch}, Tok: token.DEFINE, Rhs: []ast.Expr{n.X}}}}
	key := n.Key
	if key == nil {
		key = ident("_")
	}
	isBlank := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == "_" }
	var loop *ast.ForStmt
	if n.Tok == token.DEFINE && r.oldLoopVars && !isBlank(key) {
		te := r.typeExpr(elem)
		if te == nil {
			return
		}
		b.List = append(b.List, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR,
			Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{key.(*ast.Ident)}, Type: te}}}})
	}
	if n.Tok == token.DEFINE && !r.oldLoopVars || n.Key == nil || n.Tok == token.DEFINE && isBlank(key) {
		loop = &ast.ForStmt{
			For:  n.For,
			Init: &ast.AssignStmt{Lhs: []ast.Expr{key, ok}, Tok: token.DEFINE, Rhs: []ast.Expr{r.hook(pos, "Recv2", ch)}},
			Cond: ok,
			Post: &ast.AssignStmt{Lhs: []ast.Expr{key, ok}, Tok: token.ASSIGN, Rhs: []ast.Expr{r.hook(pos, "Recv2", ch)}},
			Body: n.Body,
		}
	} else {
		v := ident("gosct_v")
		body := []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{v, ok}, Tok: token.DEFINE, Rhs: []ast.Expr{r.hook(pos, "Recv2", ch)}},
			&ast.IfStmt{Cond: &ast.UnaryExpr{Op: token.NOT, X: ok},
				Body: &ast.BlockStmt{List: []ast.Stmt{&ast.BranchStmt{Tok: token.BREAK}}}},
			&ast.AssignStmt{Lhs: []ast.Expr{key}, Tok: token.ASSIGN, Rhs: []ast.Expr{v}},
		}
		loop = &ast.ForStmt{For: n.For, Body: &ast.BlockStmt{Lbrace: n.Body.Lbrace, List: append(body, n.Body.List...), Rbrace: n.Body.Rbrace}}
	}
	r.labelInside[b] = len(b.List)
	b.List = append(b.List, loop)
	c.Replace(b)
}

// markSelect marks the operations of a select's cases: the select
// rewrites them itself.
func (r *fileRewriter) markSelect(n *ast.SelectStmt) {
	for _, s := range n.Body.List {
		cl := s.(*ast.CommClause)
		switch comm := cl.Comm.(type) {
		case *ast.SendStmt:
			r.skip[comm] = true
		case *ast.ExprStmt:
			if u, ok := unparen(comm.X).(*ast.UnaryExpr); ok {
				r.skip[u] = true
			}
		case *ast.AssignStmt:
			r.skip[comm] = true
			if u, ok := unparen(comm.Rhs[0]).(*ast.UnaryExpr); ok {
				r.skip[u] = true
			}
		}
	}
}

// postSelect rewrites a select into cases built in source order (Go
// evaluates all channel and value operands on entering the select), a
// call of Select that picks one, and a switch on its index. The label of
// a labeled select moves to the switch, so break L still leaves it.
func (r *fileRewriter) postSelect(c *astutil.Cursor, n *ast.SelectStmt) {
	var names, inits []ast.Expr
	var clauses []ast.Stmt
	hasDefault := false
	for _, s := range n.Body.List {
		cl := s.(*ast.CommClause)
		if cl.Comm == nil {
			hasDefault = true
			clauses = append(clauses, &ast.CaseClause{Case: cl.Case, Body: cl.Body})
			continue
		}
		name := ident("gosct_c" + itoa(len(names)))
		var body []ast.Stmt
		var init ast.Expr
		switch comm := cl.Comm.(type) {
		case *ast.SendStmt:
			init = r.send(comm.Arrow, "OnSend", comm.Chan, comm.Value)
		case *ast.ExprStmt:
			u := unparen(comm.X).(*ast.UnaryExpr)
			init = r.hook(u.Pos(), "OnRecv", u.X)
		case *ast.AssignStmt:
			u := unparen(comm.Rhs[0]).(*ast.UnaryExpr)
			init = r.hook(u.Pos(), "OnRecv", u.X)
			vals := []ast.Expr{&ast.SelectorExpr{X: name, Sel: ident("Value")}}
			if len(comm.Lhs) == 2 {
				vals = append(vals, &ast.SelectorExpr{X: name, Sel: ident("OK")})
			}
			body = append(body, &ast.AssignStmt{Lhs: comm.Lhs, Tok: comm.Tok, Rhs: vals})
		}
		if init == nil {
			return // leave this select alone
		}
		names = append(names, name)
		inits = append(inits, init)
		idx := &ast.BasicLit{Kind: token.INT, Value: itoa(len(names) - 1)}
		clauses = append(clauses, &ast.CaseClause{Case: cl.Case, List: []ast.Expr{idx}, Body: append(body, cl.Body...)})
	}
	if len(names) == 0 && !hasDefault {
		// select {} is a terminating statement; so must its rewriting be.
		unreachable := &ast.CallExpr{Fun: ident("panic"), Args: []ast.Expr{&ast.BasicLit{Kind: token.STRING, Value: `"unreachable"`}}}
		c.Replace(&ast.BlockStmt{List: []ast.Stmt{exprStmt(r.hook(n.Select, "Select", ident("false"))), exprStmt(unreachable)}})
		return
	}
	if !hasDefault {
		// Select returns one of the cases: making the last one the
		// default keeps a select whose cases all return a terminating
		// statement (no "missing return").
		last := clauses[len(clauses)-1].(*ast.CaseClause)
		last.List = nil
	}
	has := ident("false")
	if hasDefault {
		has = ident("true")
	}
	sw := &ast.SwitchStmt{Switch: n.Select,
		Tag:  r.hook(n.Select, "Select", append([]ast.Expr{has}, names...)...),
		Body: &ast.BlockStmt{Lbrace: n.Body.Lbrace, List: clauses, Rbrace: n.Body.Rbrace}}
	b := &ast.BlockStmt{}
	if len(names) > 0 {
		b.List = append(b.List, &ast.AssignStmt{Lhs: names, Tok: token.DEFINE, Rhs: inits})
	}
	r.labelInside[b] = len(b.List)
	b.List = append(b.List, sw)
	c.Replace(b)
}
