package rewrite

import (
	"go/ast"
	"go/types"
)

// Test helpers take a testing.TB, or an interface of their own that
// *testing.T implements, more often than a *testing.T. What the rewriter
// does for t.Cleanup and t.Log on a *testing.T it does through such an
// interface with hooks that look at the dynamic type (runtime
// CleanupTB and TB): a *testing.B or a fake gets the plain call.

// reportNames are the methods of reportsThroughT, by name.
var reportNames = func() map[string]bool {
	m := map[string]bool{}
	for k := range reportsThroughT {
		m[k[len("testing.common."):]] = true
	}
	return m
}()

// ifaceMethod reports whether fn is a method of an interface type.
func ifaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// isCleanupIface reports Cleanup(func()) called through an interface:
// whatever the interface, the hook calls it unless the dynamic type is a
// *testing.T, so no more is asked.
func isCleanupIface(fn *types.Func) bool {
	if fn.Name() != "Cleanup" || !ifaceMethod(fn) {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	f, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	return ok && f.Params().Len() == 0 && f.Results().Len() == 0
}

// reportsThroughTB reports t.Log, t.Error, t.Fatal, t.Skip... called
// through an interface that is testing.TB's (or embeds it) or that
// *testing.T implements: a logger's Error method is left alone.
func (r *fileRewriter) reportsThroughTB(fn *types.Func) bool {
	return reportNames[fn.Name()] && r.testingIfaceMethod(fn)
}

// isContextTB reports tb.Context() through such an interface (Go 1.24's
// testing.TB has it).
func (r *fileRewriter) isContextTB(fn *types.Func) bool {
	if fn.Name() != "Context" || !r.testingIfaceMethod(fn) {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	n, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// testingIfaceMethod reports a method of an interface that is testing's
// (testing.TB, or one embedding it) or that *testing.T implements.
func (r *fileRewriter) testingIfaceMethod(fn *types.Func) bool {
	if !ifaceMethod(fn) {
		return false
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "testing" {
		return true
	}
	tt := r.testingT()
	if tt == nil {
		return false
	}
	iface, _ := fn.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
	return iface != nil && types.Implements(tt, iface)
}

// testingT is *testing.T if the package imports testing, directly or
// not; else nil (then no interface of the package can be told to be
// implemented by it, and only testing's own are hooked).
func (r *fileRewriter) testingT() types.Type {
	if r.testingTDone {
		return r.testingTType
	}
	r.testingTDone = true
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) *types.Package
	find = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == "testing" {
			return p
		}
		for _, q := range p.Imports() {
			if t := find(q); t != nil {
				return t
			}
		}
		return nil
	}
	if tp := find(r.pkg); tp != nil {
		if tn, ok := tp.Scope().Lookup("T").(*types.TypeName); ok {
			r.testingTType = types.NewPointer(tn.Type())
		}
	}
	return r.testingTType
}

// testingTRecv is the *testing.T a method promoted from testing's common
// is called on: the receiver itself, or an embedded *testing.T on the way
// (type env struct{ *testing.T }; e.Cleanup(f)). nil for a *testing.B or
// *testing.F, whose cleanups and output are left to testing.
func (r *fileRewriter) testingTRecv(se *ast.SelectorExpr, sel *types.Selection) ast.Expr {
	if isTestingT(sel.Recv()) {
		return se.X
	}
	e := se.X
	t := r.typeOf(se.X)
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		if t == nil {
			return nil
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != r.pkg {
			return nil
		}
		e = &ast.SelectorExpr{X: e, Sel: ident(f.Name())}
		t = f.Type()
		if isTestingT(t) {
			return e
		}
	}
	return nil
}
