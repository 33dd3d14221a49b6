package rewrite

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Method expressions, (*sync.Mutex).Lock, are functions taking the
// receiver as first argument. Called directly with a receiver that needs
// no embedded field on the way, (*sync.Mutex).Unlock(&mu) is the hook's
// call, gosct.Unlock(&mu) (methodExprCall). Anywhere else (a function
// value, defer of one, a receiver type that embeds the mutex) the
// expression becomes a function literal with the same signature:
//
//	func(gosct_p0 *sync.Mutex) { gosct.Lock(gosct_p0) }

// methodExpr rewrites a method expression of a hooked or atomic method.
func (r *fileRewriter) methodExpr(c *astutil.Cursor, se *ast.SelectorExpr, sel *types.Selection) {
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return
	}
	op, ok := r.methodOpOf(fn, sel)
	if !ok {
		return
	}
	sig, _ := r.typeOf(se).(*types.Signature)
	if sig == nil || sig.Variadic() || sig.Params().Len() == 0 {
		return
	}
	ft := r.funcTypeExpr(sig)
	if ft == nil {
		return
	}
	params := paramNames(ft)
	// The receiver is the first parameter; recvExpr finds the embedded
	// field on the way from its type.
	p0 := ident("gosct_p0")
	r.tv[p0] = types.TypeAndValue{Type: sig.Params().At(0).Type()}
	recv, ok := r.recvExpr(&ast.SelectorExpr{X: p0, Sel: se.Sel}, sel, op.wantAddr)
	if !ok {
		return
	}
	body := r.opBody(se.Pos(), fn, op, recv, params[1:], sig.Results().Len() > 0)
	lit := &ast.FuncLit{Type: ft, Body: &ast.BlockStmt{List: body}}
	c.Replace(r.replaced(lit, se))
}

// methodExprCall rewrites a direct call of a method expression whose
// receiver type is the method's own: the first argument is the receiver.
// Other method expressions were made function literals by methodExpr.
func (r *fileRewriter) methodExprCall(c *astutil.Cursor, call *ast.CallExpr, fn *types.Func, sel *types.Selection) {
	if len(sel.Index()) != 1 || len(call.Args) == 0 {
		return
	}
	op, ok := r.methodOpOf(fn, sel)
	if !ok {
		return
	}
	if op.atomic {
		r.atomic(c, call, call.Args[0])
		return
	}
	nc := r.hook(call.Pos(), op.hook, call.Args...)
	nc.Ellipsis = call.Ellipsis
	c.Replace(r.replaced(nc, call))
}

// atomicFuncValue rewrites a sync/atomic function used as a value,
// f := atomic.AddInt32, into a literal that calls it after the scheduling
// point on its first argument (the address operated on).
func (r *fileRewriter) atomicFuncValue(c *astutil.Cursor, se *ast.SelectorExpr, fn *types.Func) {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.TypeParams().Len() > 0 || sig.Variadic() || sig.Params().Len() == 0 {
		return
	}
	ft := r.funcTypeExpr(sig)
	if ft == nil {
		return
	}
	params := paramNames(ft)
	pos := se.Pos()
	var call ast.Stmt = exprStmt(&ast.CallExpr{Fun: se, Args: params})
	if sig.Results().Len() > 0 {
		call = &ast.ReturnStmt{Results: []ast.Expr{&ast.CallExpr{Fun: se, Args: params}}}
	}
	body := []ast.Stmt{exprStmt(r.hook(pos, atomicHookName(fn, false), params[0])), call}
	c.Replace(r.replaced(&ast.FuncLit{Type: ft, Body: &ast.BlockStmt{List: body}}, se))
}
