package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// pre marks the context of the children of a node before they are
// visited; it returns false for subtrees that are never rewritten (types,
// constants, imports).
func (r *fileRewriter) pre(c *astutil.Cursor) bool {
	if !r.preNode(c) {
		return false
	}
	r.funcPush(c.Node())
	return true
}

func (r *fileRewriter) preNode(c *astutil.Cursor) bool {
	n := c.Node()
	if e, ok := n.(ast.Expr); ok {
		if tv, found := r.info.Types[e]; found && (tv.IsType() || tv.Value != nil) {
			return false
		}
	}
	switch n := n.(type) {
	case *ast.ImportSpec, *ast.FuncType, *ast.Field:
		return false
	case *ast.FuncDecl:
		// Examples are not run under gosct's control, and go vet
		// insists their output comment stays their last comment.
		if n.Recv == nil && strings.HasPrefix(n.Name.Name, "Example") && strings.HasSuffix(r.fset.Position(n.Pos()).Filename, "_test.go") {
			return false
		}
	case *ast.GenDecl:
		return n.Tok != token.IMPORT && n.Tok != token.TYPE
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			r.noRead[unparen(n.X)] = true
		}
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			r.noRead[unparen(l)] = true
		}
		if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
			r.markCommaOK(n.Rhs[0])
		}
	case *ast.ValueSpec:
		if len(n.Names) == 2 && len(n.Values) == 1 {
			r.markCommaOK(n.Values[0])
		}
	case *ast.IncDecStmt:
		r.noRead[unparen(n.X)] = true
	case *ast.RangeStmt:
		if r.isMap(n.X) {
			// The range reads the map (see postRange), and the map
			// variable on the way: shadow-only.
			r.shadowRead[unparen(n.X)] = true
		}
		if n.Key != nil {
			r.noRead[unparen(n.Key)] = true
		}
		if n.Value != nil {
			r.noRead[unparen(n.Value)] = true
		}
	case *ast.SelectorExpr:
		// The base of a field selection is part of the accessed location
		// (instrumented at the selector); a method's receiver is passed
		// to the method, whose own accesses are instrumented, but where
		// the call reads the receiver's value (an interface, a pointer,
		// a value receiver's copy) that read is a shadow-only access.
		// A field reached through a pointer reads the pointer on the
		// way (p.f reads p): a shadow-only access, as the slice header
		// of an element below.
		if sel, ok := r.info.Selections[n]; ok {
			r.noRead[unparen(n.X)] = true
			if sel.Kind() == types.MethodVal && r.recvIsRead(sel, n.X) ||
				sel.Kind() == types.FieldVal && isPointer(r.typeOf(n.X)) {
				delete(r.noRead, unparen(n.X))
				r.shadowRead[unparen(n.X)] = true
			}
		}
	case *ast.IndexExpr:
		if t := r.typeOf(n.X); t != nil {
			switch t.Underlying().(type) {
			case *types.Array:
				r.noRead[unparen(n.X)] = true
			case *types.Slice, *types.Map, *types.Pointer:
				// The element is the accessed location; the slice's
				// header, the map variable, the pointer to the array
				// are read on the way: shadow-only.
				r.shadowRead[unparen(n.X)] = true
			}
		}
	case *ast.SliceExpr:
		if t := r.typeOf(n.X); t != nil {
			if _, ok := t.Underlying().(*types.Array); ok {
				r.noRead[unparen(n.X)] = true
			}
		}
	case *ast.StarExpr:
		// *p reads p on the way: shadow-only.
		r.shadowRead[unparen(n.X)] = true
	case *ast.CallExpr:
		r.callee[unparen(n.Fun)] = true
		if m := r.mapBuiltinOperand(n); m != nil {
			// The map gets a Write of its own; the map variable is
			// read on the way: shadow-only.
			r.shadowRead[m] = true
		}
	case *ast.LabeledStmt:
		// The rewriting of a select or range loop is a block; break and
		// continue need the label inside it (on the switch or loop), goto
		// needs it outside. A label used both ways is left alone.
		if r.gotoLabels[n.Label.Name] && r.breakLabels[n.Label.Name] {
			r.skip[n.Stmt] = true
		}
	case *ast.SelectStmt:
		r.markSelect(n)
	case *ast.GoStmt:
		if r.isAtomicCall(n.Call) || r.mapBuiltinOperand(n.Call) != nil {
			r.skip[n.Call] = true
		}
	case *ast.DeferStmt:
		// Deferred, the Then form would perform the atomic operation at
		// the defer statement, not at return: see deferredAtomic. The
		// Write of a deferred delete(m, k) would come too early as well
		// (before the lock a later statement takes): left alone.
		if r.isAtomicCall(n.Call) || r.mapBuiltinOperand(n.Call) != nil {
			r.skip[n.Call] = true
		}
	}
	return true
}

// markCommaOK marks the operand of a two-valued assignment: a receive
// becomes Recv2 at the assignment; a map index cannot be wrapped.
func (r *fileRewriter) markCommaOK(e ast.Expr) {
	switch x := unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			r.skip[x] = true
		}
	case *ast.IndexExpr:
		r.noRead[x] = true
	}
}

// post rewrites a node whose children are rewritten already.
func (r *fileRewriter) post(c *astutil.Cursor) bool {
	n := c.Node()
	r.postNode(c)
	r.funcPop(n)
	return true
}

func (r *fileRewriter) postNode(c *astutil.Cursor) {
	switch n := c.Node().(type) {
	case *ast.Ident:
		if c.Name() != "Sel" {
			r.read(c, n)
		}
	case *ast.SelectorExpr:
		r.postSelector(c, n)
	case *ast.IndexExpr:
		r.read(c, n)
	case *ast.StarExpr:
		r.read(c, n)
	case *ast.CallExpr:
		r.postCall(c, n)
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && !r.skip[n] {
			c.Replace(r.replaced(r.hook(n.Pos(), "Recv", n.X), n))
		}
	case *ast.SendStmt:
		if !r.skip[n] {
			if call := r.send(n.Arrow, "Send", n.Chan, n.Value); call != nil {
				c.Replace(exprStmt(call))
			}
		}
	case *ast.AssignStmt:
		r.postAssign(c, n)
	case *ast.ValueSpec:
		if len(n.Names) == 2 && len(n.Values) == 1 {
			switch x := unparen(n.Values[0]).(type) {
			case *ast.UnaryExpr:
				if x.Op == token.ARROW {
					n.Values[0] = r.hook(x.Pos(), "Recv2", x.X)
				}
			case *ast.IndexExpr:
				if r.instrumentedMapIndex(x) {
					n.Values[0] = r.commaOKRead(x)
				}
			}
		}
	case *ast.IncDecStmt:
		op := token.ADD
		if n.Tok == token.DEC {
			op = token.SUB
		}
		one := &ast.BasicLit{Kind: token.INT, Value: "1"}
		if s := r.write(c, n.X, one, op); s != nil {
			c.Replace(s)
		}
	case *ast.ExprStmt:
		r.postExprStmt(c, n)
	case *ast.RangeStmt:
		if !r.skip[n] {
			r.rangeWrites(n)
			r.postRange(c, n)
			// After postRange, which rewrites ranges over maps and
			// channels: rangeReads may put the loop in a block.
			r.rangeReads(c, n)
		}
	case *ast.ForStmt:
		r.loopVarCopies(c, n)
	case *ast.ReturnStmt:
		r.postReturn(c, n)
	case *ast.SelectStmt:
		if !r.skip[n] {
			r.postSelect(c, n)
		}
	case *ast.GoStmt:
		r.postGo(c, n)
	case *ast.DeferStmt:
		if r.skip[n.Call] {
			r.deferredAtomic(c, n.Call, n.Defer, false)
		}
	case *ast.LabeledStmt:
		if b, ok := n.Stmt.(*ast.BlockStmt); ok && !r.gotoLabels[n.Label.Name] {
			if i, ok := r.labelInside[b]; ok {
				b.List[i] = &ast.LabeledStmt{Label: n.Label, Stmt: b.List[i]}
				c.Replace(b)
			}
		}
	case *ast.FuncDecl:
		r.postFunc(n)
	}
}

// read instruments a read of shared memory in a value context.
func (r *fileRewriter) read(c *astutil.Cursor, e ast.Expr) {
	if r.noRead[e] {
		return
	}
	tv, ok := r.info.Types[e]
	if !ok || !tv.IsValue() || tv.Value != nil || untracked(tv.Type) {
		return
	}
	if id, ok := e.(*ast.Ident); ok {
		if _, isVar := r.info.Uses[id].(*types.Var); !isVar {
			return
		}
	}
	shadow := shadowOnly(tv.Type) || r.shadowRead[e]
	if !r.sharedMem(e) {
		if !r.localSliceElem(e) {
			return
		}
		shadow = true
	}
	load, read := "LoadAt", "ReadAt"
	if shadow {
		load, read = "ShadowLoad", "ShadowRead"
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		if _, isMap := r.typeOf(x.X).Underlying().(*types.Map); isMap {
			if r.sideEffectFree(x.X) {
				c.Replace(r.replaced(r.hook(x.Pos(), "Then", r.hook(x.Pos(), read, x.X, r.site(x, x.Pos())), x), e))
			}
			return
		}
	case *ast.StarExpr:
		c.Replace(r.replaced(r.hook(x.Pos(), load, x.X, r.site(x, x.Pos())), e))
		return
	}
	if !tv.Addressable() {
		return
	}
	c.Replace(r.replaced(r.hook(e.Pos(), load, addr(e), r.site(e, e.Pos())), e))
}

// write instruments the assignment lhs op= rhs (op is token.ASSIGN for
// plain assignment) and returns the statement replacing it, or nil.
// A map element gets a Write before the statement, inserted here.
func (r *fileRewriter) write(c *astutil.Cursor, lhs, rhs ast.Expr, op token.Token) ast.Stmt {
	lhs = unparen(lhs)
	tv, ok := r.info.Types[lhs]
	if !ok || untracked(tv.Type) {
		return nil
	}
	shadow := shadowOnly(tv.Type)
	if !r.sharedMem(lhs) {
		if !r.localSliceElem(lhs) {
			return nil
		}
		shadow = true
	}
	store, wr := "StoreAt", "WriteAt"
	if shadow {
		store, wr = "ShadowStore", "ShadowWrite"
	}
	site := r.site(lhs, lhs.Pos())
	if ix, ok := lhs.(*ast.IndexExpr); ok {
		if _, isMap := r.typeOf(ix.X).Underlying().(*types.Map); isMap {
			if r.sideEffectFree(ix.X) && c.Index() >= 0 {
				c.InsertBefore(exprStmt(r.hook(lhs.Pos(), wr, ix.X, site)))
			}
			return nil
		}
	}
	if !tv.Addressable() && !isStar(lhs) {
		return nil
	}
	if op == token.ASSIGN {
		var call *ast.CallExpr
		if rt := r.typeOf(rhs); rt != nil && !isUntyped(rt) && !types.Identical(rt, tv.Type) {
			call = r.hookInst(lhs.Pos(), store, tv.Type, addr(lhs), rhs, site)
			if call == nil {
				return nil
			}
		} else {
			call = r.hook(lhs.Pos(), store, addr(lhs), rhs, site)
		}
		return exprStmt(call)
	}
	if shadowOnly(tv.Type) || !r.sideEffectFree(lhs) {
		return nil
	}
	load := "LoadAt"
	if shadow {
		load = "ShadowLoad"
	}
	// gc evaluates the calls of x op= f() before it loads x; Load is a
	// call, evaluated left to right, so f() goes first into a temporary.
	var pre ast.Stmt
	if !r.sideEffectFree(rhs) && !r.constShift(rhs) && c.Index() >= 0 {
		v := ident("gosct_v")
		pre = &ast.AssignStmt{Lhs: []ast.Expr{v}, Tok: token.DEFINE, Rhs: []ast.Expr{rhs}}
		rhs = v
	}
	old := r.hook(lhs.Pos(), load, addr(lhs), site)
	if _, isBin := rhs.(*ast.BinaryExpr); isBin {
		rhs = &ast.ParenExpr{X: rhs}
	}
	val := &ast.BinaryExpr{X: old, Op: op, Y: rhs}
	store2 := exprStmt(r.hook(lhs.Pos(), store, addr(lhs), val, site))
	if pre != nil {
		return &ast.BlockStmt{List: []ast.Stmt{pre, store2}}
	}
	return store2
}

// constShift reports a shift of a constant in e (1 << f()): an untyped
// constant there takes its type from the context, which a temporary
// would lose.
func (r *fileRewriter) constShift(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.SHL || b.Op == token.SHR) {
			if tv, ok := r.info.Types[b.X]; ok && tv.Value != nil {
				found = true
			}
		}
		return !found
	})
	return found
}

func isStar(e ast.Expr) bool { _, ok := e.(*ast.StarExpr); return ok }

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// instrumentedMapIndex reports m[k] on a map whose reads are instrumented
// (m evaluated twice is the same map).
func (r *fileRewriter) instrumentedMapIndex(ix *ast.IndexExpr) bool {
	if !r.sideEffectFree(ix.X) {
		return false
	}
	t := r.typeOf(ix.X)
	if t == nil {
		return false
	}
	_, isMap := t.Underlying().(*types.Map)
	return isMap && r.sharedMem(ix)
}

// mapReadHook is the hook of a read of map element ix: shadow-only for
// elements of the types whose variables are.
func (r *fileRewriter) mapReadHook(ix *ast.IndexExpr) string {
	if t := r.typeOf(ix); t != nil && shadowOnly(t) {
		return "ShadowRead"
	}
	return "ReadAt"
}

// commaOKRead is the comma-ok read m[k] with its Read on the map operand,
// gosct.Then(gosct.Read(m), m)[k]: still an index expression, so it keeps
// its two values where no statement can go before it (the init of an if
// or switch, a var declaration).
func (r *fileRewriter) commaOKRead(ix *ast.IndexExpr) *ast.IndexExpr {
	m := r.hook(ix.Pos(), "Then", r.hook(ix.Pos(), r.mapReadHook(ix), ix.X, r.site(ix, ix.Pos())), ix.X)
	return &ast.IndexExpr{X: m, Lbrack: ix.Lbrack, Index: ix.Index, Rbrack: ix.Rbrack}
}

// postAssign handles v, ok := <-ch and writes of shared memory.
func (r *fileRewriter) postAssign(c *astutil.Cursor, n *ast.AssignStmt) {
	if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
		if u, ok := unparen(n.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW && r.skip[u] && !r.skip[n] {
			n.Rhs[0] = r.hook(u.Pos(), "Recv2", u.X)
		}
	}
	if len(n.Lhs) == 2 && len(n.Rhs) == 1 && !r.skip[n] {
		// v, ok := m[k] cannot be wrapped: a Read before the statement,
		// or on the map operand where there is no statement list.
		if ix, ok := unparen(n.Rhs[0]).(*ast.IndexExpr); ok && r.instrumentedMapIndex(ix) {
			if c.Index() >= 0 {
				c.InsertBefore(exprStmt(r.hook(ix.Pos(), r.mapReadHook(ix), ix.X, r.site(ix, ix.Pos()))))
			} else {
				n.Rhs[0] = r.commaOKRead(ix)
			}
		}
	}
	if r.skip[n] || n.Tok == token.DEFINE {
		return
	}
	if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
		op := token.ASSIGN
		if n.Tok != token.ASSIGN {
			op = n.Tok - (token.ADD_ASSIGN - token.ADD)
		}
		if s := r.write(c, n.Lhs[0], n.Rhs[0], op); s != nil {
			c.Replace(s)
		}
		return
	}
	// Several locations at once: a Write before the statement for each,
	// or after it for a variable when the right side calls or receives
	// (res, err = pool.Acquire(ctx)): Go assigns after the call returns,
	// and a call that synchronizes (a lock, a receive) orders the
	// assignment after another goroutine's; a Write before it would be
	// recorded ahead of that order, a race the program does not have.
	// A variable's address does not depend on the call, so the Write
	// after names the location assigned.
	if c.Index() < 0 {
		return
	}
	calls := false
	for _, e := range n.Rhs {
		if !r.sideEffectFree(e) {
			calls = true
		}
	}
	var after []ast.Stmt
	for _, l := range n.Lhs {
		l = unparen(l)
		tv, ok := r.info.Types[l]
		if !ok || untracked(tv.Type) || !r.sideEffectFree(l) {
			continue
		}
		wr := "WriteAt"
		if shadowOnly(tv.Type) {
			wr = "ShadowWrite"
		}
		if !r.sharedMem(l) {
			if !r.localSliceElem(l) {
				continue
			}
			wr = "ShadowWrite"
		}
		if ix, ok := l.(*ast.IndexExpr); ok {
			if _, isMap := r.typeOf(ix.X).Underlying().(*types.Map); isMap {
				c.InsertBefore(exprStmt(r.hook(l.Pos(), wr, ix.X, r.site(l, l.Pos()))))
				continue
			}
		}
		if tv.Addressable() || isStar(l) {
			w := exprStmt(r.hook(l.Pos(), wr, addr(l), r.site(l, l.Pos())))
			if _, isVar := l.(*ast.Ident); isVar && calls {
				after = append(after, w)
				continue
			}
			c.InsertBefore(w)
		}
	}
	// InsertAfter puts each right after the statement: last first.
	for i := len(after) - 1; i >= 0; i-- {
		c.InsertAfter(after[i])
	}
}
