package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// postGo rewrites go f(x, y) into
//
//	{ gosct_a0 := f; gosct_a1 := x; ...; gosct.Go(func() { gosct_a0(gosct_a1, ...) }) }
//
// so the function value and the arguments are evaluated in the parent, as
// Go requires. Static functions, function literals and constants are used
// directly. The call may already be a hook (go wg.Done() is
// gosct.Done(&wg) by now): its operands are evaluated in the parent too.
func (r *fileRewriter) postGo(c *astutil.Cursor, n *ast.GoStmt) {
	if r.skip[n.Call] {
		r.deferredAtomic(c, n.Call, n.Go, true)
		return
	}
	call := n.Call
	var t temps
	fun := call.Fun
	if !r.staticFunc(fun) {
		fun = t.add(fun, 1)[0]
	}
	args := r.tempArgs(&t, call.Args)
	var f ast.Expr
	if lit, ok := unparen(call.Fun).(*ast.FuncLit); ok && len(call.Args) == 0 {
		f = lit
	} else {
		inner := &ast.CallExpr{Fun: fun, Args: args, Ellipsis: call.Ellipsis}
		f = &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}},
			Body: &ast.BlockStmt{List: []ast.Stmt{exprStmt(inner)}}}
	}
	goCall := exprStmt(r.hook(n.Go, "Go", f))
	if len(t) == 0 {
		c.Replace(goCall)
		return
	}
	c.Replace(&ast.BlockStmt{List: append(t, goCall)})
}

// temps are the statements gosct_aN := e that evaluate operands early.
type temps []ast.Stmt

// add evaluates e (with k values) into new temporaries.
func (t *temps) add(e ast.Expr, k int) []ast.Expr {
	var ids []ast.Expr
	for j := 0; j < k; j++ {
		ids = append(ids, ident("gosct_a"+itoa(len(*t))+suffix(j, k)))
	}
	*t = append(*t, &ast.AssignStmt{Lhs: ids, Tok: token.DEFINE, Rhs: []ast.Expr{e}})
	return ids
}

// tempArgs evaluates call arguments into temporaries, except constants
// (an untyped constant must keep converting to the parameter's type).
func (r *fileRewriter) tempArgs(t *temps, args []ast.Expr) []ast.Expr {
	var out []ast.Expr
	for _, a := range args {
		if tv, ok := r.tvOf(a); ok && (tv.Value != nil || tv.IsNil()) {
			out = append(out, a)
			continue
		}
		k := 1
		if tup, ok := r.typeOf(a).(*types.Tuple); ok {
			k = tup.Len()
		}
		out = append(out, t.add(a, k)...)
	}
	return out
}

// deferredAtomic rewrites defer/go of an atomic operation: its operands
// are evaluated now, the scheduling point and the operation happen when
// the deferred call (or the goroutine) runs:
//
//	{ gosct_a0 := &n; defer func() { gosct.Atomic(gosct_a0); atomic.AddInt32(gosct_a0, -1) }() }
func (r *fileRewriter) deferredAtomic(c *astutil.Cursor, call *ast.CallExpr, pos token.Pos, isGo bool) {
	fn, se, sel := r.calleeFunc(call.Fun)
	if fn == nil || call.Ellipsis.IsValid() {
		return
	}
	var t temps
	var addrE ast.Expr
	var inner *ast.CallExpr
	if sel != nil && sel.Kind() != types.MethodExpr {
		recv, ok := r.recvExpr(se, sel, true)
		if !ok {
			return
		}
		rt := t.add(recv, 1)[0]
		addrE = rt
		inner = &ast.CallExpr{Fun: &ast.SelectorExpr{X: rt, Sel: ident(fn.Name())}, Args: r.tempArgs(&t, call.Args)}
	} else {
		if len(call.Args) == 0 {
			return
		}
		args := r.tempArgs(&t, call.Args)
		addrE = args[0]
		inner = &ast.CallExpr{Fun: call.Fun, Args: args}
	}
	tok := r.hook(pos, atomicHookName(fn, false), addrE)
	body := []ast.Stmt{exprStmt(tok), exprStmt(inner)}
	if poolMethod(fn) == "Put" && len(inner.Args) == 1 {
		// defer pool.Put(buf): the Put releases buf for its next Get.
		inner.Args[0] = r.hook(pos, "PoolPut", tok, inner.Args[0])
		body = []ast.Stmt{exprStmt(inner)}
	}
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: body}}
	var stmt ast.Stmt
	if isGo {
		stmt = exprStmt(r.hook(pos, "Go", lit))
	} else {
		stmt = &ast.DeferStmt{Defer: pos, Call: &ast.CallExpr{Fun: lit}}
	}
	c.Replace(&ast.BlockStmt{List: append(t, stmt)})
}

func suffix(j, k int) string {
	if k == 1 {
		return ""
	}
	return "_" + itoa(j)
}

// staticFunc reports a callee whose evaluation has no effect: a declared
// function (possibly instantiated), a builtin, a function literal, a
// hook.
func (r *fileRewriter) staticFunc(fun ast.Expr) bool {
	fun = unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		return r.staticFunc(f.X)
	case *ast.IndexListExpr:
		return r.staticFunc(f.X)
	case *ast.FuncLit:
		return true
	case *ast.Ident:
		switch r.info.Uses[f].(type) {
		case *types.Func, *types.Builtin:
			return true
		}
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == r.alias && r.info.Uses[x] == nil {
			return true
		}
		if _, isSel := r.info.Selections[f]; isSel {
			return false
		}
		_, ok := r.info.Uses[f.Sel].(*types.Func)
		return ok
	}
	return false
}
