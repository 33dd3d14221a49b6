package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Pipes the runtime controls. io.Pipe is Go code over channels, in a
// package that is not rewritten: a Read blocked for a Write would block
// outside the scheduler's sight. The runtime's Pipe returns ends of its
// own types, *gosct.PipeReader and *gosct.PipeWriter, with io's methods
// over io's algorithm on controlled channels. `r, w := io.Pipe()` becomes
// `r, w := gosct.Pipe()` when the program cannot tell the difference:
// both ends are locals, and every use of them calls one of their methods
// or converts them to an interface (an io.Reader argument, a field of
// type io.Writer, a return of an io.ReadCloser), where the runtime's types
// fit as io's do. A use that needs io's type itself (a parameter or field
// of type *io.PipeReader, an assignment to another variable, &r) keeps
// the pipe io's.

// knownPipes finds, in f, the io.Pipe() calls whose ends may be the
// runtime's, and returns them with their hook.
func knownPipes(info *types.Info, f *ast.File) map[*ast.CallExpr]string {
	var made []*ast.AssignStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && a.Tok == token.DEFINE && len(a.Lhs) == 2 && len(a.Rhs) == 1 {
			if call, ok := a.Rhs[0].(*ast.CallExpr); ok && len(call.Args) == 0 && isIOPipe(info, call.Fun) {
				made = append(made, a)
			}
		}
		return true
	})
	if len(made) == 0 {
		return nil
	}
	// The ends, and whether every use seen so far fits the runtime's types.
	fits := map[*types.Var]bool{}
	for _, a := range made {
		for _, l := range a.Lhs {
			if v, ok := info.Defs[l.(*ast.Ident)].(*types.Var); ok {
				fits[v] = true
			}
		}
	}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				if _, end := fits[v]; end && !pipeUseFits(info, id, stack) {
					fits[v] = false
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	out := map[*ast.CallExpr]string{}
	for _, a := range made {
		ok := true
		for _, l := range a.Lhs {
			id := l.(*ast.Ident)
			if id.Name == "_" {
				continue
			}
			v, _ := info.Defs[id].(*types.Var)
			// nil: redeclared by :=, an existing variable of io's type.
			ok = ok && v != nil && fits[v]
		}
		if ok {
			out[a.Rhs[0].(*ast.CallExpr)] = "Pipe"
		}
	}
	return out
}

// isIOPipe reports whether fun denotes io.Pipe.
func isIOPipe(info *types.Info, fun ast.Expr) bool {
	se, ok := unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[se.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "io" && fn.Name() == "Pipe"
}

// pipeMethods are the methods of io.PipeReader and io.PipeWriter, which
// the runtime's types have too.
var pipeMethods = map[string]bool{"Read": true, "Write": true, "Close": true, "CloseWithError": true}

// pipeUseFits reports whether the use id of a pipe end, under the nodes
// of stack (outermost first), would compile and behave the same with the
// runtime's type.
func pipeUseFits(info *types.Info, id *ast.Ident, stack []ast.Node) bool {
	var e ast.Expr = id
	i := len(stack) - 1
	for i >= 0 {
		p, ok := stack[i].(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p
		i--
	}
	if i < 0 {
		return false
	}
	if se, ok := stack[i].(*ast.SelectorExpr); ok && se.X == e {
		sel, ok := info.Selections[se]
		return ok && sel.Kind() == types.MethodVal && pipeMethods[se.Sel.Name]
	}
	t := expectedType(info, e, stack[:i+1])
	if t == nil {
		return false
	}
	if _, ok := t.(*types.TypeParam); ok {
		return false
	}
	return types.IsInterface(t)
}

// expectedType is the type the expression e is converted to by its
// context, the last node of stack (an argument to its parameter, the
// right of an assignment to the left's type, ...); nil when the context
// is not one of these, or keeps e's own type.
func expectedType(info *types.Info, e ast.Expr, stack []ast.Node) types.Type {
	switch p := stack[len(stack)-1].(type) {
	case *ast.CallExpr:
		return argumentType(info, p, e)
	case *ast.AssignStmt:
		if p.Tok != token.ASSIGN || len(p.Lhs) != len(p.Rhs) {
			return nil
		}
		for i, r := range p.Rhs {
			if r == e {
				return info.TypeOf(p.Lhs[i])
			}
		}
	case *ast.ValueSpec:
		if p.Type != nil {
			return info.TypeOf(p.Type)
		}
	case *ast.ReturnStmt:
		return resultType(info, p, e, stack)
	case *ast.CompositeLit:
		for i, el := range p.Elts {
			if el == e {
				return elementType(info.TypeOf(p), i, nil)
			}
		}
	case *ast.KeyValueExpr:
		if p.Value == e && len(stack) >= 2 {
			if lit, ok := stack[len(stack)-2].(*ast.CompositeLit); ok {
				return elementType(info.TypeOf(lit), -1, p.Key)
			}
		}
	case *ast.SendStmt:
		if p.Value == e {
			if c, ok := under(info.TypeOf(p.Chan)).(*types.Chan); ok {
				return c.Elem()
			}
		}
	}
	return nil
}

// argumentType is the type the argument e of call is converted to.
func argumentType(info *types.Info, call *ast.CallExpr, e ast.Expr) types.Type {
	tv, ok := info.Types[call.Fun]
	if !ok {
		return nil
	}
	if tv.IsType() {
		return tv.Type // a conversion
	}
	sig, ok := under(tv.Type).(*types.Signature)
	if !ok {
		return nil // a builtin
	}
	for i, a := range call.Args {
		if a != e {
			continue
		}
		n := sig.Params().Len()
		if sig.Variadic() && i >= n-1 {
			if call.Ellipsis.IsValid() {
				return nil
			}
			if s, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
				return s.Elem()
			}
			return nil
		}
		if i < n {
			return sig.Params().At(i).Type()
		}
	}
	return nil
}

// resultType is the type of the result that e, in ret, returns.
func resultType(info *types.Info, ret *ast.ReturnStmt, e ast.Expr, stack []ast.Node) types.Type {
	var sig *types.Signature
	for i := len(stack) - 1; i >= 0 && sig == nil; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			sig, _ = info.TypeOf(f).(*types.Signature)
		case *ast.FuncDecl:
			if obj, ok := info.Defs[f.Name].(*types.Func); ok {
				sig, _ = obj.Type().(*types.Signature)
			}
		}
	}
	if sig == nil || sig.Results().Len() != len(ret.Results) {
		return nil
	}
	for i, r := range ret.Results {
		if r == e {
			return sig.Results().At(i).Type()
		}
	}
	return nil
}

// elementType is the type of an element of a composite literal of type
// t: the i-th without a key, else the one key names.
func elementType(t types.Type, i int, key ast.Expr) types.Type {
	switch u := under(t).(type) {
	case *types.Struct:
		if key == nil {
			if i >= 0 && i < u.NumFields() {
				return u.Field(i).Type()
			}
			return nil
		}
		if k, ok := key.(*ast.Ident); ok {
			for j := 0; j < u.NumFields(); j++ {
				if u.Field(j).Name() == k.Name {
					return u.Field(j).Type()
				}
			}
		}
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		if key != nil {
			return u.Elem()
		}
	}
	return nil
}

// under is t's underlying type; nil for nil.
func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}
