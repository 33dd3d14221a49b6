package rewrite

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// isAtomicKind reports sync/atomic functions and methods, and sync.Map
// and sync.Pool methods: one scheduling point before the operation, which
// happens unchanged.
//
// sync.Pool's Get and Put never block, but a Put of x happens before the
// Get that returns x (Go's race detector models it so): without the
// synchronization of the scheduling point on the pool, a buffer reused
// through a pool by another goroutine would be reported as a race.
func isAtomicKind(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if fn.Pkg().Path() == "sync/atomic" {
		return funcKey(fn) != "" || methodKey(fn) != ""
	}
	pkg, name := recvNamed(fn)
	return pkg == "sync" && (name == "Map" || name == "Pool")
}

// atomicHookName is the scheduling point of an atomic operation, which
// also tells the race detector what the operation does to its operand:
// AtomicLoad for one that only loads (a spin on loads changes nothing:
// see runtime.AtomicLoad), AtomicStore for a store, AtomicCAS for a
// compare-and-swap whose result goes through ThenCAS (direct: the call's
// result is at hand), else Atomic (a read-modify-write, or a sync.Map or
// sync.Pool operation).
func atomicHookName(fn *types.Func, direct bool) string {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		if fn != nil && strings.HasPrefix(fn.Name(), "Load") && !strings.HasPrefix(fn.Name(), "LoadOr") && !strings.HasPrefix(fn.Name(), "LoadAnd") {
			return "AtomicLoad"
		}
		return "Atomic"
	}
	switch name := fn.Name(); {
	case strings.HasPrefix(name, "Load"):
		return "AtomicLoad"
	case strings.HasPrefix(name, "Store"):
		return "AtomicStore"
	case strings.HasPrefix(name, "CompareAndSwap") && direct:
		return "AtomicCAS"
	}
	return "Atomic"
}

// poolMethod is "Get" or "Put" for those methods of sync.Pool, else "".
func poolMethod(fn *types.Func) string {
	if pkg, name := recvNamed(fn); pkg == "sync" && name == "Pool" {
		return fn.Name()
	}
	return ""
}

func (r *fileRewriter) isAtomicCall(call *ast.CallExpr) bool {
	fn, _, _ := r.calleeFunc(call.Fun)
	return isAtomicKind(fn)
}

// atomic puts a scheduling point, gosct.Atomic(a), before an atomic
// operation: around the call if it has one result, else around its first
// argument (evaluated after the receiver, before the operation), else as a
// statement before it. a is the address operated on (nil if computing it
// twice could differ).
func (r *fileRewriter) atomic(c *astutil.Cursor, call *ast.CallExpr, a ast.Expr) {
	if a == nil || !r.sideEffectFree(a) {
		a = ast.NewIdent("nil")
	}
	pos := call.Pos()
	fn, _, _ := r.calleeFunc(call.Fun)
	hook := atomicHookName(fn, true)
	tok := r.hook(pos, hook, a)
	sig, _ := r.typeOf(call.Fun).(*types.Signature)
	if sig == nil {
		return
	}
	if sig.Results().Len() == 1 {
		then := "Then"
		switch {
		case hook == "AtomicCAS":
			then = "ThenCAS"
		case poolMethod(fn) == "Get":
			then = "PoolGot"
		}
		c.Replace(r.replaced(r.hook(pos, then, tok, call), call))
		return
	}
	if len(call.Args) > 0 && sig.Params().Len() > 0 && r.wrappable(call.Args[0], sig.Params().At(0).Type()) {
		then := "Then"
		if poolMethod(fn) == "Put" {
			then = "PoolPut"
		}
		call.Args[0] = r.hook(pos, then, tok, call.Args[0])
		return
	}
	if sig.Results().Len() == 0 {
		r.atomicPre[call] = tok
	}
}

// wrappable reports whether gosct.Then(tok, e) can stand where e is
// passed as a parameter of type p: Then's type argument is e's type,
// which for an untyped constant is its default type. e may already be
// a hook that replaced the argument (a field's read): its type is the
// argument's (tvOf), else a pool's Put would lose its PoolPut.
func (r *fileRewriter) wrappable(e ast.Expr, p types.Type) bool {
	tv, ok := r.tvOf(e)
	if !ok || tv.IsNil() {
		return false
	}
	if tv.Value == nil {
		return true
	}
	// go/types records a constant with the type it was converted to, so
	// an untyped constant cannot be told from a typed one: accept it
	// where Then's inferred type (the default type, for an untyped one)
	// is sure to be what the parameter gets.
	if _, isIface := p.Underlying().(*types.Interface); isIface {
		return true
	}
	return types.Identical(defaultType(tv.Value.Kind()), p)
}

// postExprStmt puts the scheduling point of an atomic operation without
// results before its statement, or in a function literal when the
// statement is not in a list (a for loop's post statement).
func (r *fileRewriter) postExprStmt(c *astutil.Cursor, n *ast.ExprStmt) {
	call, ok := n.X.(*ast.CallExpr)
	if !ok {
		return
	}
	tok, ok := r.atomicPre[call]
	if !ok {
		return
	}
	if c.Index() >= 0 {
		c.InsertBefore(exprStmt(tok))
		return
	}
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: []ast.Stmt{exprStmt(tok), n}}}
	c.Replace(exprStmt(&ast.CallExpr{Fun: lit}))
}

// defaultType is the default type of an untyped constant of kind k.
func defaultType(k constant.Kind) types.Type {
	switch k {
	case constant.Bool:
		return types.Typ[types.Bool]
	case constant.String:
		return types.Typ[types.String]
	case constant.Int:
		return types.Typ[types.Int]
	case constant.Float:
		return types.Typ[types.Float64]
	case constant.Complex:
		return types.Typ[types.Complex128]
	}
	return types.Typ[types.Invalid]
}
