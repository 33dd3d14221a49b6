package rewrite

import (
	"go/ast"
	"go/types"
)

// Map elements are shared memory wherever the map is (docs/rewrite.md):
// beside the reads and writes of m[k], delete(m, k) and clear(m) write the
// map and a range over it reads it. A concurrent iteration and write is a
// fatal error of Go's runtime ("concurrent map iteration and map write")
// that one goroutine at a time never triggers: the race detector must see
// them. The operation keeps its map operand, with the access on it:
// delete(gosct.Then(gosct.Write(m), m), k).

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
	if !r.isMap(m) || !sideEffectFree(r.info, m) {
		return nil
	}
	return m
}

// mapAccess is gosct.Then(gosct.hook(m), m) for hook Read or Write.
func (r *fileRewriter) mapAccess(m ast.Expr, hook string) ast.Expr {
	if !sideEffectFree(r.info, m) {
		return m
	}
	return r.replaced(r.hook(m.Pos(), "Then", r.hook(m.Pos(), hook, m), m), m)
}
