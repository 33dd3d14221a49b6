package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// sharedLocals finds the local variables of a file that another goroutine
// may reach: those a function literal captures (a go statement runs a
// closure, or a function value reaches another goroutine) and those whose
// address is taken, explicitly (&x, x[:] of an array) or implicitly (a
// pointer method called on x). Every other local is provably unshared and
// its accesses are left alone.
//
// A captured local that nothing writes after its definition (no
// assignment, ++ or range clause names it, it is not a named result, and
// its address is not taken) is left alone too: its one write, the
// definition, happens before the literal that captures it exists, so no
// read of it can race or conflict with anything. Channels, wait groups'
// pointers and functions handed to goroutines are mostly such variables.
//
// A literal that is called where it stands, `func() {...}()` or `defer
// func() {...}()`, runs in the goroutine that reaches it: what it
// captures is not shared for that (a literal inside it that does reach
// another goroutine counts as any other). Go keeps such variables on the
// stack; the hooks of a shared variable take its address, which would
// move it to the heap, and a program that counts its allocations
// (testing.AllocsPerRun around a function with a deferred closure) would
// count gosct's.
func sharedLocals(info *types.Info, f *ast.File) map[*types.Var]bool {
	shared := map[*types.Var]bool{}
	local := func(id *ast.Ident) *types.Var {
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.Parent() == nil {
			return nil
		}
		return v
	}
	var lits []*ast.FuncLit
	inPlace := map[*ast.FuncLit]bool{} // called where it stands, in its goroutine
	goCalls := map[*ast.CallExpr]bool{}
	written := map[*types.Var]bool{} // written after their definition
	write := func(e ast.Expr) {
		if v := rootLocal(info, e, local); v != nil {
			written[v] = true
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				write(l) // a name := defines is in Defs, not Uses: not a write
			}
		case *ast.IncDecStmt:
			write(n.X)
		case *ast.RangeStmt:
			// Each iteration writes the clause's variables (before Go
			// 1.22 the same ones for the whole loop).
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok && n.Tok == token.DEFINE {
					if v, ok := info.Defs[id].(*types.Var); ok {
						written[v] = true
					}
				} else if x != nil {
					write(x)
				}
			}
		case *ast.FuncType:
			// A return statement writes the named results.
			if n.Results != nil {
				for _, fld := range n.Results.List {
					for _, id := range fld.Names {
						if v, ok := info.Defs[id].(*types.Var); ok {
							written[v] = true
						}
					}
				}
			}
		case *ast.GoStmt:
			goCalls[n.Call] = true
		case *ast.CallExpr:
			if lit, ok := unparen(n.Fun).(*ast.FuncLit); ok && !goCalls[n] {
				inPlace[lit] = true
			}
		case *ast.FuncLit:
			lits = append(lits, n)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := rootLocal(info, n.X, local); v != nil {
					shared[v] = true
				}
			}
		case *ast.SliceExpr:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Array); ok {
					if v := rootLocal(info, n.X, local); v != nil {
						shared[v] = true
					}
				}
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[n]; ok && sel.Kind() != types.FieldVal {
				if fn, ok := sel.Obj().(*types.Func); ok {
					recv := fn.Type().(*types.Signature).Recv()
					if recv != nil && isPointer(recv.Type()) && !isPointer(info.TypeOf(n.X)) {
						if v := rootLocal(info, n.X, local); v != nil {
							shared[v] = true
						}
					}
				}
			}
		}
		return true
	})
	for _, lit := range lits {
		if inPlace[lit] {
			continue
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v := local(id); v != nil && written[v] && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
					shared[v] = true
				}
			}
			return true
		})
	}
	return shared
}

// rootLocal is the local variable whose storage e denotes part of (through
// fields and array elements, not through pointers), or nil.
func rootLocal(info *types.Info, e ast.Expr, local func(*ast.Ident) *types.Var) *types.Var {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return local(x)
		case *ast.SelectorExpr:
			if isPointer(info.TypeOf(x.X)) {
				return nil
			}
			if sel, ok := info.Selections[x]; !ok || sel.Indirect() {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			t := info.TypeOf(x.X)
			if t == nil {
				return nil
			}
			if _, ok := t.Underlying().(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// isStd reports whether path is in the standard library, which is never
// instrumented: its first element has no dot and it is not in the main
// module (whose path may have no dot either).
func isStd(path, modPath string) bool {
	if modPath != "" && (path == modPath || strings.HasPrefix(path, modPath+"/")) {
		return false
	}
	first := path
	if i := strings.Index(first, "/"); i >= 0 {
		first = first[:i]
	}
	return !strings.Contains(first, ".")
}

// sharedVar reports whether the variable v is shared: package-level (of a
// package outside the standard library) or a shared local.
func (r *fileRewriter) sharedVar(v *types.Var) bool {
	if v == nil || v.IsField() || v.Name() == "_" {
		return false
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return v.Pkg() == r.pkg || !isStd(v.Pkg().Path(), r.modPath)
	}
	return r.sharedLocals[v]
}

// sharedMem reports whether the memory e denotes may be shared: a shared
// variable, or anything reached through a pointer, or a field or array
// element of shared memory, or an element of a slice held in shared
// memory.
func (r *fileRewriter) sharedMem(e ast.Expr) bool {
	e = unparen(e)
	if o, ok := r.orig[e]; ok {
		// A node the walk rewrote already (the slice header of xs[i],
		// now a shadow-only read): the memory is the original's.
		return r.sharedMem(o)
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := r.info.Uses[x].(*types.Var)
		return r.sharedVar(v)
	case *ast.SelectorExpr:
		if sel, ok := r.info.Selections[x]; ok {
			if sel.Kind() != types.FieldVal {
				return false
			}
			return sel.Indirect() || r.sharedMem(x.X)
		}
		v, _ := r.info.Uses[x.Sel].(*types.Var) // pkg.Var
		return r.sharedVar(v)
	case *ast.IndexExpr:
		t := r.typeOf(x.X)
		if t == nil {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			return true // pointer to array
		case *types.Slice, *types.Array:
			return r.sharedMem(x.X) || isPointer(t)
		case *types.Map:
			_ = u
			return true
		}
		return false
	case *ast.StarExpr:
		return true
	}
	return false
}

// untracked reports types whose variables are not instrumented at all:
// the synchronization and test types (and pointers to them), whose
// operations have hooks of their own and whose values are not copied
// (go vet's copylocks).
func untracked(t types.Type) bool {
	if t == nil {
		return true
	}
	switch namedPkg(t) {
	case "sync", "testing":
		return true
	}
	return false
}

// shadowOnly reports types whose variables are instrumented with
// shadow-only accesses (race-checked, not scheduling points): channels,
// functions, contexts and the sync/atomic types. A scheduling point
// before every read of a channel variable would double those of its
// operations for little gain; but `s.stopCh = make(chan struct{})`
// racing with `<-s.stopCh`, or `r.onClose = f` with `r.onClose()`, are
// races Go's detector reports.
func shadowOnly(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	}
	switch namedPkg(t) {
	case "context", "sync/atomic":
		return true
	}
	return false
}

// namedPkg is the path of the package of t's name (through one pointer),
// or "".
func namedPkg(t types.Type) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path()
	}
	return ""
}

// sideEffectFree reports whether evaluating e twice is the same as once:
// no calls, no receives.
func sideEffectFree(info *types.Info, e ast.Expr) bool {
	return pureExpr(info, e, nil)
}

// sideEffectFree is sideEffectFree of an expression the walk may have
// rewritten already: a shadow-only read the rewriter put in it (the slice
// header read on the way to an element, xs[i] becoming
// gosct.ShadowLoad(&xs, site)[i]) is as free of effects as the read it
// stands for.
func (r *fileRewriter) sideEffectFree(e ast.Expr) bool {
	return pureExpr(r.info, e, func(c *ast.CallExpr) (ast.Expr, bool) {
		if !r.hooks[c] || !shadowReadHooks[hookName(c)] {
			return nil, false
		}
		o, ok := r.orig[c]
		return o, ok
	})
}

// shadowReadHooks are the hooks that only read, without a scheduling
// point: evaluating one twice is harmless.
var shadowReadHooks = map[string]bool{"ShadowLoad": true, "ShadowDeref": true, "ShadowMapRead": true}

// hookName is the name of the runtime function a hook call calls.
func hookName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr: // an explicit instantiation
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			return s.Sel.Name
		}
	}
	return ""
}

// pureBuiltin reports a call of a built-in function that has no effect
// of its own (unsafe.Add, unsafe.Sizeof, len...): an address computed
// with it, as xsync's Map computes a slot's to skip a bounds check, is as
// free of effects as its arguments, and an atomic operation on it names
// its address (else its synchronization is lost).
func pureBuiltin(info *types.Info, fun ast.Expr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	if !ok {
		return false
	}
	switch b.Name() {
	case "Add", "Sizeof", "Offsetof", "Alignof", "len", "cap", "min", "max", "real", "imag", "complex":
		return true
	}
	return false
}

// pureExpr is sideEffectFree; original, if not nil, gives the expression a
// call stands for when it is free of effects itself.
func pureExpr(info *types.Info, e ast.Expr, original func(*ast.CallExpr) (ast.Expr, bool)) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, found := info.Types[n.Fun]; found && tv.IsType() {
				return true // a conversion
			}
			if pureBuiltin(info, n.Fun) {
				return true
			}
			if original != nil {
				if o, found := original(n); found {
					ok = pureExpr(info, o, original)
					return false
				}
			}
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.FuncLit:
			return false
		}
		return ok
	})
	return ok
}
