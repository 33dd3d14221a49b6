package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Pipes whose every use the rewriter sees. A goroutine that blocks in
// uncontrolled code and comes back joins every goroutine's clock
// (docs/races.md): it cannot be known what woke it. An io.Pipe whose two
// ends are locals used only as the receivers of direct calls of their
// methods is known: the runtime's Pipe makes it, and its Pipe* hooks run
// io's pipe algorithm on controlled channels, so a Read blocked for a
// Write is a goroutine the scheduler sees, woken by a decision it
// records, ordered after that writer only. An end that escapes (into an
// interface, an argument, a field, a method value) may be used by code
// the rewriter does not see, on io's methods: such a pipe stays io's,
// and its reader keeps the join.

// pipeMethodHooks are the hooks of the methods of a known pipe's ends.
var pipeMethodHooks = map[string]string{
	"io.PipeReader.Read": "PipeRead", "io.PipeReader.Close": "PipeReaderClose",
	"io.PipeReader.CloseWithError": "PipeReaderCloseWithError",
	"io.PipeWriter.Write":          "PipeWrite", "io.PipeWriter.Close": "PipeWriterClose",
	"io.PipeWriter.CloseWithError": "PipeWriterCloseWithError",
}

// knownPipes finds, in f, the `r, w := io.Pipe()` whose ends are used only
// as receivers of pipeMethodHooks' methods, and returns the calls to
// rewrite (io.Pipe's and the methods'), with their hooks.
func knownPipes(info *types.Info, f *ast.File) map[*ast.CallExpr]string {
	// The receivers of direct calls of the pipe's methods.
	recvOf := map[*ast.Ident]*ast.CallExpr{}
	hookOf := map[*ast.CallExpr]string{}
	var made []*ast.AssignStmt
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			se, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := se.X.(*ast.Ident)
			if !ok {
				return true
			}
			sel, ok := info.Selections[se]
			if !ok || sel.Kind() != types.MethodVal {
				return true
			}
			if fn, ok := sel.Obj().(*types.Func); ok {
				if h := pipeMethodHooks[methodKey(fn)]; h != "" {
					recvOf[id] = n
					hookOf[n] = h
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || len(n.Lhs) != 2 || len(n.Rhs) != 1 {
				return true
			}
			call, ok := n.Rhs[0].(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			se, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if fn, ok := info.Uses[se.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "io" && fn.Name() == "Pipe" {
				made = append(made, n)
			}
		}
		return true
	})
	if len(made) == 0 {
		return nil
	}
	uses := map[*types.Var][]*ast.Ident{}
	for id, obj := range info.Uses {
		if v, ok := obj.(*types.Var); ok {
			uses[v] = append(uses[v], id)
		}
	}
	out := map[*ast.CallExpr]string{}
	for _, a := range made {
		ok := true
		var calls []*ast.CallExpr
		for _, l := range a.Lhs {
			id, _ := l.(*ast.Ident)
			if id == nil {
				ok = false
				break
			}
			if id.Name == "_" {
				continue
			}
			v, _ := info.Defs[id].(*types.Var)
			if v == nil {
				// Redeclared by :=: assigned, not made here.
				ok = false
				break
			}
			for _, u := range uses[v] {
				c := recvOf[u]
				if c == nil {
					ok = false
					break
				}
				calls = append(calls, c)
			}
		}
		if !ok {
			continue
		}
		out[a.Rhs[0].(*ast.CallExpr)] = "Pipe"
		for _, c := range calls {
			out[c] = hookOf[c]
		}
	}
	return out
}
