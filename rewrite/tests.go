package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"
)

// postFunc wraps the body of each func TestXxx(t *testing.T) of a test
// file with gosct.Test, which runs it under the runtime's control.
func (r *fileRewriter) postFunc(fd *ast.FuncDecl) {
	if fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || !isTestName(fd.Name.Name) {
		return
	}
	if !strings.HasSuffix(r.fset.Position(fd.Pos()).Filename, "_test.go") {
		return
	}
	fn, _ := r.info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 || !isTestingT(sig.Params().At(0).Type()) {
		return
	}
	field := fd.Type.Params.List[0]
	inner := &ast.Field{Type: field.Type}
	var t *ast.Ident
	if len(field.Names) == 1 && field.Names[0].Name != "_" {
		t = ident(field.Names[0].Name)
		inner.Names = []*ast.Ident{ident(field.Names[0].Name)}
	} else {
		t = ident("gosct_t")
		field.Names = []*ast.Ident{t}
		inner.Names = []*ast.Ident{ident("_")}
	}
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{List: []*ast.Field{inner}}}, Body: fd.Body}
	call := r.hook(fd.Body.Lbrace, "Test", t, lit)
	fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, List: []ast.Stmt{exprStmt(call)}, Rbrace: fd.Body.Rbrace}
	r.tests = append(r.tests, fd.Name.Name)
}

// isTestName follows go test: Test, then nothing or a non-lowercase rune.
func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	c, _ := utf8.DecodeRuneInString(name[4:])
	return !unicode.IsLower(c)
}

func isTestingT(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T"
}
