package rewrite

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
)

// printFile prints a rewritten file. With lines, the printer emits a
// //line directive wherever the output's line differs from the original
// position of a node, so compile errors, panics and stack traces name the
// user's file and line.
func printFile(fset *token.FileSet, f *ast.File, lines bool) ([]byte, error) {
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if lines {
		cfg.Mode |= printer.SourcePos
	}
	var b bytes.Buffer
	if err := cfg.Fprint(&b, fset, f); err != nil {
		return nil, err
	}
	if !lines {
		return b.Bytes(), nil
	}
	return dropLinesAfterOutput(b.Bytes()), nil
}

// dropLinesAfterOutput removes //line directives between an example's
// "// Output:" comment and the end of the function (examples are not
// rewritten, but the printer may still mark their closing brace): go
// test's vet requires the output comment to be the example's last
// comment.
func dropLinesAfterOutput(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	var out bytes.Buffer
	inOutput := false
	for _, l := range lines {
		t := bytes.TrimSpace(l)
		switch {
		case bytes.HasPrefix(t, []byte("// Output:")) || bytes.HasPrefix(t, []byte("// Unordered output:")):
			inOutput = true
		case inOutput && bytes.HasPrefix(l, []byte("//line ")):
			continue
		case inOutput && len(l) > 0 && l[0] == '}':
			inOutput = false
		}
		out.Write(l)
	}
	return out.Bytes()
}
