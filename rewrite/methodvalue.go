package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// methodOp is how a method used as a function value is rewritten.
type methodOp struct {
	hook     string // the hook taking the receiver first; "" for an atomic
	wantAddr bool   // the hook takes the receiver's address
	atomic   bool   // sync/atomic, sync.Map, sync.Pool: scheduling point, then the call
}

// methodOpOf is the rewriting of a call of fn (selected by sel), if any.
func (r *fileRewriter) methodOpOf(fn *types.Func, sel *types.Selection) (methodOp, bool) {
	if isAtomicKind(fn) {
		return methodOp{atomic: true, wantAddr: true}, true
	}
	if h := methodHooks[methodKey(fn)]; h != "" {
		return methodOp{hook: h, wantAddr: true}, true
	}
	if h := r.lockerHook(fn, sel); h != "" {
		return methodOp{hook: h}, true
	}
	if isCleanupIface(fn) {
		return methodOp{hook: "CleanupTB"}, true
	}
	return methodOp{}, false
}

// opBody is the body of a function literal that performs op with fn on
// the receiver recv (an expression without side effects: it may be
// evaluated twice) and args.
func (r *fileRewriter) opBody(pos token.Pos, fn *types.Func, op methodOp, recv ast.Expr, args []ast.Expr, hasResult bool) []ast.Stmt {
	var pre []ast.Stmt
	var call *ast.CallExpr
	if op.atomic {
		tok := r.hook(pos, atomicHookName(fn, false), recv)
		x := recv
		if _, simple := recv.(*ast.Ident); !simple {
			x = &ast.ParenExpr{X: recv}
		}
		call = &ast.CallExpr{Fun: &ast.SelectorExpr{X: x, Sel: ident(fn.Name())}, Args: args}
		switch poolMethod(fn) {
		case "Get":
			if hasResult {
				return []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{r.hook(pos, "PoolGot", tok, call)}}}
			}
		case "Put":
			if len(args) == 1 {
				call.Args = []ast.Expr{r.hook(pos, "PoolPut", tok, args[0])}
				return []ast.Stmt{exprStmt(call)}
			}
		}
		pre = append(pre, exprStmt(tok))
	} else {
		call = r.hook(pos, op.hook, append([]ast.Expr{recv}, args...)...)
	}
	if hasResult {
		return append(pre, &ast.ReturnStmt{Results: []ast.Expr{call}})
	}
	return append(pre, exprStmt(call))
}

// methodValue rewrites mu.Lock used as a value into a function literal
// calling the hook (an atomic method, v.Add, into one calling the method
// after its scheduling point). The receiver is evaluated where the method
// value is, as Go does: directly if it is a variable's address, else
// through an immediately called literal that binds it.
func (r *fileRewriter) methodValue(c *astutil.Cursor, se *ast.SelectorExpr, sel *types.Selection) {
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return
	}
	op, ok := r.methodOpOf(fn, sel)
	if !ok {
		return
	}
	recv, ok := r.recvExpr(se, sel, op.wantAddr)
	if !ok {
		return
	}
	sig, _ := r.typeOf(se).(*types.Signature)
	if sig == nil || sig.Variadic() {
		return
	}
	ft := r.funcTypeExpr(sig)
	if ft == nil {
		return
	}
	args := paramNames(ft)
	stable := isVarAddr(recv)
	bound := recv
	if !stable {
		bound = ast.NewIdent("gosct_r")
	}
	body := r.opBody(se.Pos(), fn, op, bound, args, sig.Results().Len() > 0)
	lit := &ast.FuncLit{Type: ft, Body: &ast.BlockStmt{List: body}}
	if stable {
		c.Replace(r.replaced(lit, se))
		return
	}
	rt := r.typeExpr(r.recvType(recv, sel))
	if rt == nil {
		return
	}
	outer := &ast.FuncLit{
		Type: &ast.FuncType{
			Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ast.NewIdent("gosct_r")}, Type: rt}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: r.funcTypeExpr(sig)}}},
		},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{lit}}}},
	}
	c.Replace(r.replaced(&ast.CallExpr{Fun: outer, Args: []ast.Expr{recv}}, se))
}

// recvType is the type of the receiver expression recvExpr built.
func (r *fileRewriter) recvType(recv ast.Expr, sel *types.Selection) types.Type {
	fn := sel.Obj().(*types.Func)
	t := fn.Type().(*types.Signature).Recv().Type()
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return sel.Recv()
	}
	return t
}

// isVarAddr reports &v for a variable v: an address that cannot change
// between the method value and its call (the value of a pointer or
// interface variable can).
func isVarAddr(e ast.Expr) bool {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	_, ok = unparen(u.X).(*ast.Ident)
	return ok
}

// funcTypeExpr spells a signature with named parameters gosct_p0...
func (r *fileRewriter) funcTypeExpr(sig *types.Signature) *ast.FuncType {
	ft := &ast.FuncType{Params: &ast.FieldList{}}
	for i := 0; i < sig.Params().Len(); i++ {
		te := r.typeExpr(sig.Params().At(i).Type())
		if te == nil {
			return nil
		}
		ft.Params.List = append(ft.Params.List, &ast.Field{
			Names: []*ast.Ident{ast.NewIdent("gosct_p" + itoa(i))}, Type: te})
	}
	if sig.Results().Len() > 0 {
		ft.Results = &ast.FieldList{}
		for i := 0; i < sig.Results().Len(); i++ {
			te := r.typeExpr(sig.Results().At(i).Type())
			if te == nil {
				return nil
			}
			ft.Results.List = append(ft.Results.List, &ast.Field{Type: te})
		}
	}
	return ft
}

// paramNames lists the parameters of a function type funcTypeExpr built
// (one name per field), as call arguments.
func paramNames(ft *ast.FuncType) []ast.Expr {
	var names []ast.Expr
	for _, f := range ft.Params.List {
		names = append(names, f.Names[0])
	}
	return names
}
