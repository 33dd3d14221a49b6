package static

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Sequential reports whether the lines of a Go file (src, the whole
// file) can hold no thread interaction, from its syntax alone: `gosct
// test --since` then needs neither types nor SSA for them, and a change
// that touches only such lines (on both sides of the diff) skips loading
// the packages, which costs seconds on a cold build cache for nothing.
//
// It is stricter than Program.Since, never looser: a line passes when
// every syntax node that starts on it is a literal, an operator other
// than a receive or an address-of, an assignment, a declaration, a
// return, a branch or a block of plain control flow (if, for without
// range, switch), and every name on it is a variable or constant local
// to the function around it, which no closure captures and whose address
// is never taken, nor a field or method selected from (a method call may
// take it) anywhere in that function. Calls of any kind (a call may lock
// or send), conversions, selectors, indexing, dereferences, channel
// operations, go, defer, select, range and function literals fail it.
// why names the first node that fails, for the summary ("" when the
// lines pass).
func Sequential(filename string, src []byte, lines []LineRange) (ok bool, why string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, 0)
	if err != nil {
		return false, "does not parse"
	}
	line := func(n ast.Node) int { return fset.Position(n.Pos()).Line }
	funcs := funcNodes(f)
	var stack []ast.Node // the ancestors of the node visited
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if why != "" {
			return false
		}
		switch x := n.(type) {
		case *ast.CommentGroup:
			return false // comments do nothing
		case *ast.ValueSpec:
			// Its names and values; naming a type accesses nothing.
			stack = append(stack, n)
			for _, id := range x.Names {
				ast.Inspect(id, visit)
			}
			for _, v := range x.Values {
				ast.Inspect(v, visit)
			}
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		if !inRanges(lines, line(n)) {
			return true
		}
		if !plainNode(n) {
			why = fmt.Sprintf("%s at line %d", nodeName(n), line(n))
			return false
		}
		// A part on a changed line of an operation that starts on an
		// unchanged one (an argument of a call) is that operation.
	up:
		for i := len(stack) - 2; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.FuncLit, *ast.FuncDecl:
				break up
			}
			if !plainNode(stack[i]) {
				why = fmt.Sprintf("%s around line %d", nodeName(stack[i]), line(n))
				return false
			}
		}
		if id, isID := n.(*ast.Ident); isID && !localUnshared(id, funcs) {
			why = fmt.Sprintf("%s at line %d (not a variable local to its function)", id.Name, line(n))
			return false
		}
		return true
	}
	ast.Inspect(f, visit)
	return why == "", why
}

// nodeName names a kind of syntax for people: "*ast.CallExpr" is "CallExpr".
func nodeName(n ast.Node) string { return strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast.") }

// plainNode tells the syntax that is no thread interaction by itself.
// The nodes a file is made of around its functions (the file, its
// declarations, the function and its body, field lists) pass too: a
// changed line is checked by the nodes that start on it, and the
// ancestors of a node are checked only up to its function.
func plainNode(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.ParenExpr, *ast.BinaryExpr,
		*ast.AssignStmt, *ast.IncDecStmt, *ast.ReturnStmt, *ast.ExprStmt,
		*ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.SwitchStmt, *ast.CaseClause,
		*ast.BranchStmt, *ast.LabeledStmt, *ast.EmptyStmt, *ast.DeclStmt, *ast.ValueSpec:
		return true
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND
	case *ast.GenDecl:
		return x.Tok == token.VAR || x.Tok == token.CONST
	}
	return false
}

// funcNodes are the functions of f, declared and literal.
func funcNodes(f *ast.File) []ast.Node {
	var fns []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			fns = append(fns, n)
		}
		return true
	})
	return fns
}

// innermost is the smallest function of fns around pos.
func innermost(fns []ast.Node, pos token.Pos) ast.Node {
	var in ast.Node
	for _, fn := range fns {
		if fn.Pos() <= pos && pos < fn.End() && (in == nil || fn.Pos() >= in.Pos()) {
			in = fn
		}
	}
	return in
}

// localUnshared reports whether id names something no other goroutine
// can see: a constant, or a variable declared in the function that uses
// it (parameters included), used by no closure within that function, its
// address never taken and never the operand of a selector. The parser's
// scopes resolve only names of this file: an unresolved name (a
// package-level one of another file, or a predeclared one) fails, but
// for the predeclared constants.
func localUnshared(id *ast.Ident, fns []ast.Node) bool {
	if id.Name == "_" {
		return true
	}
	obj := id.Obj
	if obj == nil {
		switch id.Name {
		case "true", "false", "nil", "iota":
			return true
		}
		return false
	}
	if obj.Kind == ast.Con || obj.Kind == ast.Lbl {
		return true
	}
	if obj.Kind != ast.Var {
		return false
	}
	decl, ok := obj.Decl.(ast.Node)
	if !ok {
		return false
	}
	fn := innermost(fns, decl.Pos())
	if fn == nil || innermost(fns, id.Pos()) != fn {
		return false // a package-level variable, or captured
	}
	shared := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			if x != fn && uses(x, obj) {
				shared = true
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND && uses(x.X, obj) {
				shared = true
			}
		case *ast.SelectorExpr:
			if uses(x.X, obj) {
				shared = true
			}
		}
		return !shared
	})
	return !shared
}

// uses reports whether n mentions obj.
func uses(n ast.Node, obj *ast.Object) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && id.Obj == obj {
			found = true
		}
		return !found
	})
	return found
}
