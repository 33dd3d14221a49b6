package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Timers reached through an embedding. A type that embeds a *time.Timer or
// *time.Ticker has their Stop and Reset as promoted methods, and a call
// through an interface (clockwork's `realTimer{*time.Timer}` held as a
// clockwork.Timer) goes to time's own methods, which no call site the
// rewriter sees names: on a timer the runtime made, (*time.Timer).Stop
// panics "Stop called on uninitialized Timer", and a ticker's Stop would
// not stop its virtual clock. Such a type declared in an instrumented file
// gets Stop and Reset methods of its own that call the hooks, with the
// signatures of the promoted ones: the promotion stops there, for calls
// through interfaces, method values and types that embed it in turn.
//
// Only a field embedded at depth one is handled: deeper, the types on the
// way declare the methods themselves when their files are instrumented.
// A type declared inside a function cannot have methods, and a
// *time.Timer held directly in an interface still dispatches to time's
// methods (docs/limitations.md).

// timerEmbedMethods are the methods of time.Timer and time.Ticker that
// the hooks replace (methodHooks).
var timerEmbedMethods = []string{"Stop", "Reset"}

// timerMethods returns the methods to add to the file's types that embed a
// timer or a ticker.
func (r *fileRewriter) timerMethods() []ast.Decl {
	var decls []ast.Decl
	for _, d := range r.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts, ok := s.(*ast.TypeSpec)
			if !ok || ts.Assign.IsValid() {
				continue
			}
			tn, ok := r.info.Defs[ts.Name].(*types.TypeName)
			if !ok {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			for _, m := range timerEmbedMethods {
				if fd := r.timerMethod(ts, named, m); fd != nil {
					decls = append(decls, fd)
				}
			}
		}
	}
	return decls
}

// timerMethod is the method m for the type of ts, when m is promoted to it
// from a time.Timer or time.Ticker embedded at depth one; nil otherwise.
func (r *fileRewriter) timerMethod(ts *ast.TypeSpec, named *types.Named, m string) *ast.FuncDecl {
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	obj, index, _ := types.LookupFieldOrMethod(named, true, r.pkg, m)
	fn, ok := obj.(*types.Func)
	if !ok || len(index) != 2 {
		return nil
	}
	pkg, recv := recvNamed(fn)
	hook := methodHooks[pkg+"."+recv+"."+m]
	if pkg != "time" || hook == "" {
		return nil
	}
	field := st.Field(index[0])
	if !field.Embedded() {
		return nil
	}
	_, isPtr := types.Unalias(field.Type()).(*types.Pointer)
	sig := fn.Type().(*types.Signature)

	rv := ident(r.freeName("gosct_recv"))
	// The receiver's type: T, or T[P, ...] for a generic type.
	var rt ast.Expr = ident(ts.Name.Name)
	if ts.TypeParams != nil {
		var ps []ast.Expr
		for _, f := range ts.TypeParams.List {
			for _, n := range f.Names {
				ps = append(ps, ident(n.Name))
			}
		}
		if len(ps) == 1 {
			rt = &ast.IndexExpr{X: rt, Index: ps[0]}
		} else {
			rt = &ast.IndexListExpr{X: rt, Indices: ps}
		}
	}
	// A pointer embedded: a value receiver, so that T's method set keeps
	// the method, as it had the promoted one. A value embedded: the
	// promoted method was *T's only.
	var arg ast.Expr = &ast.SelectorExpr{X: rv, Sel: ident(field.Name())}
	if !isPtr {
		rt = &ast.StarExpr{X: rt}
		arg = &ast.UnaryExpr{Op: token.AND, X: arg}
	}
	args := []ast.Expr{arg}
	params := &ast.FieldList{}
	for i := 0; i < sig.Params().Len(); i++ {
		te := r.typeExpr(sig.Params().At(i).Type())
		if te == nil {
			return nil
		}
		p := ident(r.freeName("gosct_arg"))
		p.Name += string(rune('0' + i))
		params.List = append(params.List, &ast.Field{Names: []*ast.Ident{p}, Type: te})
		args = append(args, ident(p.Name))
	}
	var results *ast.FieldList
	call := r.hook(token.NoPos, hook, args...)
	var body ast.Stmt = exprStmt(call)
	if sig.Results().Len() > 0 {
		te := r.typeExpr(sig.Results().At(0).Type())
		if te == nil {
			return nil
		}
		results = &ast.FieldList{List: []*ast.Field{{Type: te}}}
		body = &ast.ReturnStmt{Results: []ast.Expr{call}}
	}
	return &ast.FuncDecl{
		Recv: &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{rv}, Type: rt}}},
		Name: ident(m),
		Type: &ast.FuncType{Params: params, Results: results},
		Body: &ast.BlockStmt{List: []ast.Stmt{body}},
	}
}
