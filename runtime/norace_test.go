package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Under -race every function of the runtime must be //go:norace, or its
// accesses to the state the goroutines share would be race reports
// (tsan_on.go). The hooks that perform the user's access (Load, Store
// and their variants) are the exception: the race detector must see it.
func TestEveryFunctionIsNorace(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil && userAccess[fd.Name.Name] {
				continue
			}
			if !noraceDoc(fd.Doc) {
				t.Errorf("%s: func %s lacks //go:norace", fset.Position(fd.Pos()), fd.Name.Name)
			}
		}
	}
}

// userAccess are the hooks whose access is the user's.
var userAccess = map[string]bool{"Load": true, "Store": true, "LoadAt": true, "StoreAt": true, "ShadowLoad": true, "ShadowStore": true,
	"AppendSlice": true, "AppendString": true}

func noraceDoc(g *ast.CommentGroup) bool {
	if g == nil {
		return false
	}
	for _, c := range g.List {
		if c.Text == "//go:norace" {
			return true
		}
	}
	return false
}
