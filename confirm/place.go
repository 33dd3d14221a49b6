package confirm

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// Placing a hold in the source: before the statement holding the
// operation's line, in the innermost frame of the goroutine's stack that
// is in the module (a hold inside a dependency goes before the call into
// it). Inserted code never moves the user's lines: an inserted line is
// followed, in the copy go test builds, by a //line directive giving the
// next line its own number back, so that every position go test prints
// (a failure, a panic, a race, a goroutine dump) is the user's, and the
// inserted calls see their callers at the lines gosct recorded.
//
// Where no statement can go (before a case, or an else if's condition),
// the hold goes before the statement that holds the operation: the
// select, the switch, the chain's first if. A select evaluates all its
// channels and values as it starts, so that is exact. Before a switch the
// hold also precedes its tag and the cases above the operation's, before
// an if chain the conditions above: the operation still runs after it, and
// what runs in between is the program's own evaluation. A pass count is
// the one place it shows: a hold of the helper's ways on pass n of a case
// counts the switch's passes, more when a case above matched; a hold so
// misplaced is a hold missed, "not confirmed", never a false "confirmed".
// Wrapping the expression (f(delay(), e), or a func literal) would be
// exact, but needs e's type, which untyped constants and named booleans
// make a generic helper get wrong: it would not always compile.

// Layout locates a package and its module on disk.
type Layout struct {
	// Package is the import path of the package tested, Dir its directory.
	Package, Dir string
	// Module is the module's path, Root its directory ("" when unknown:
	// only the package's own files are patched).
	Module, Root string
}

// fileOf returns the file of frame f that the module holds, "" if none.
func (l Layout) fileOf(f Frame) string {
	pkg := strings.TrimSuffix(f.Pkg(), "_test")
	dir := ""
	switch {
	case pkg == l.Package || pkg == "main":
		dir = l.Dir
	case l.Module != "" && l.Root != "" && strings.HasPrefix(pkg, l.Module+"/"):
		dir = filepath.Join(l.Root, filepath.FromSlash(strings.TrimPrefix(pkg, l.Module+"/")))
	case l.Module != "" && pkg == l.Module && l.Root != "":
		dir = l.Root
	default:
		return ""
	}
	p := filepath.Join(dir, f.File)
	if fi, err := os.Stat(p); err != nil || fi.IsDir() {
		return ""
	}
	return p
}

// site is one place in a file where a call to the helper goes.
type site struct {
	file string // absolute path
	line int    // the line the hold is at (the user's numbering)
	// how it is inserted: before the statement starting on line, after
	// the deferred call of line (it runs as the function returns), or
	// at the end of a loop's body (the loop header's next pass).
	where insertion
	// at is where the insertion goes in the file, as an offset, and
	// whether it is a line of its own (else inline, "; "-separated).
	off     int
	ownLine bool
	indent  string
	// callers are the stack frames of the goroutine's callers that the
	// inserted call checks, innermost first.
	callers []Frame
	// n shifts the occurrence: at the end of a loop body, the header's
	// pass n is the body end's pass n-1.
	nShift int
	pkg    string // the file's package name
}

type insertion int

const (
	before insertion = iota
	afterDefer
	loopEnd
	afterStmt // after the statement: a goroutine held once its last operation is done
)

// files caches the parsed files.
type files struct {
	fset  *token.FileSet
	asts  map[string]*ast.File
	srcs  map[string][]byte
	fails map[string]error
}

func newFiles() *files {
	return &files{fset: token.NewFileSet(), asts: map[string]*ast.File{}, srcs: map[string][]byte{}, fails: map[string]error{}}
}

func (fs *files) parse(path string) (*ast.File, []byte, error) {
	if f, ok := fs.asts[path]; ok {
		return f, fs.srcs[path], nil
	}
	if err := fs.fails[path]; err != nil {
		return nil, nil, err
	}
	src, err := os.ReadFile(path)
	if err == nil {
		var f *ast.File
		f, err = parser.ParseFile(fs.fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err == nil {
			fs.asts[path], fs.srcs[path] = f, src
			return f, src, nil
		}
	}
	fs.fails[path] = err
	return nil, nil, err
}

// locate finds where a hold of place p goes; an error says why it cannot.
func (fs *files) locate(l Layout, p Place) (site, error) {
	for k, fr := range p.Stack {
		path := l.fileOf(fr)
		if path == "" {
			continue
		}
		var s site
		var err error
		if p.After {
			s, err = fs.after(path, fr.Line)
		} else {
			s, err = fs.at(path, fr.Line, p.N, k == 0)
		}
		if err != nil {
			return site{}, err
		}
		s.callers = p.Stack[k+1:]
		return s, nil
	}
	if len(p.Stack) == 0 {
		return site{}, fmt.Errorf("G%d's %s has no recorded stack", p.G, p.Op)
	}
	return site{}, fmt.Errorf("G%d's %s at %s: no frame of its stack is in the module", p.G, p.Op, p.Pos())
}

// at places a call before the statement of path's line, for the pass n of
// the goroutine there; own: the line is the operation's own (not a call
// into a dependency), where a deferred call and a loop header count.
func (fs *files) at(path string, line, n int, own bool) (site, error) {
	f, src, stmt, err := fs.stmtAt(path, line)
	if err != nil {
		return site{}, err
	}
	tf := fs.fset.File(f.Pos())
	s := site{file: path, line: line, pkg: f.Name.Name, where: before}
	if own {
		switch st := stmt.(type) {
		case *ast.DeferStmt:
			s.where = afterDefer
		case *ast.ForStmt:
			if n > 0 && line < tf.Line(st.Body.Lbrace) || n > 0 && line == tf.Line(st.Pos()) {
				s.where, s.nShift = loopEnd, 1
			}
		case *ast.RangeStmt:
			if n > 0 && line <= tf.Line(st.Body.Lbrace) {
				s.where, s.nShift = loopEnd, 1
			}
		}
	}
	return fs.finish(s, tf, src, stmt), nil
}

// after places a call right after the statement of path's line: where a
// goroutine that never runs again in the schedule (its last operation
// there, then others ran to the bug) is held, before it goes on.
// Nothing goes after a statement that ends its block's flow (a return, a
// panic: the function would lack its terminating statement), nor after
// one whose header held the operation (an if's condition, a loop's
// header, a select): its end comes after its body, not after the
// operation.
func (fs *files) after(path string, line int) (site, error) {
	f, src, stmt, err := fs.stmtAt(path, line)
	if err != nil {
		return site{}, err
	}
	if terminates(stmt) {
		return site{}, fmt.Errorf("%s:%d ends its block: nothing can go after it", filepath.Base(path), line)
	}
	switch stmt.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
		return site{}, fmt.Errorf("%s:%d heads a compound statement: a hold after it would come after its body", filepath.Base(path), line)
	}
	tf := fs.fset.File(f.Pos())
	return fs.finish(site{file: path, line: line, pkg: f.Name.Name, where: afterStmt}, tf, src, stmt), nil
}

// terminates reports whether st ends the flow of its block.
func terminates(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// stmtAt is the statement a hold of path's line goes by, in its file.
func (fs *files) stmtAt(path string, line int) (*ast.File, []byte, ast.Stmt, error) {
	f, src, err := fs.parse(path)
	if err != nil {
		return nil, nil, nil, err
	}
	tf := fs.fset.File(f.Pos())
	// The statements holding line, outer first, each with the number of
	// func literals it is in.
	type cand struct {
		st    ast.Stmt
		funcs int
	}
	var cands []cand
	var stack []ast.Node
	funcs := 0
	// The bodies of switches and selects list clauses, not statements:
	// nothing goes before a case.
	clauses := map[*ast.BlockStmt]bool{}
	ast.Inspect(f, func(x ast.Node) bool {
		if x == nil {
			if _, ok := stack[len(stack)-1].(*ast.FuncLit); ok {
				funcs--
			}
			stack = stack[:len(stack)-1]
			return false
		}
		if tf.Line(x.Pos()) > line || tf.Line(x.End()) < line {
			return false
		}
		stack = append(stack, x)
		var list []ast.Stmt
		switch b := x.(type) {
		case *ast.FuncLit:
			funcs++
		case *ast.SwitchStmt:
			clauses[b.Body] = true
		case *ast.TypeSwitchStmt:
			clauses[b.Body] = true
		case *ast.SelectStmt:
			clauses[b.Body] = true
		case *ast.BlockStmt:
			if !clauses[b] {
				list = b.List
			}
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		}
		for _, st := range list {
			if tf.Line(st.Pos()) <= line && line <= tf.Line(st.End()) {
				cands = append(cands, cand{st, funcs})
			}
		}
		return true
	})
	if len(cands) == 0 {
		return nil, nil, nil, fmt.Errorf("%s:%d is in no statement", filepath.Base(path), line)
	}
	// The innermost statement, unless the line starts a statement around
	// it in the same function: the first of those (on "for ...; op(); ...
	// { n++ }", the loop, whose header runs first; on "case 1: n = op()",
	// the assignment; on "go func() { op() }()", the call, run by the
	// goroutine the go statement starts).
	best := cands[len(cands)-1]
	for _, c := range cands {
		if c.funcs == best.funcs && tf.Line(c.st.Pos()) == line {
			best = c
			break
		}
	}
	return f, src, best.st, nil
}

// finish computes where s's call goes in the file, by stmt.
func (fs *files) finish(s site, tf *token.File, src []byte, stmt ast.Stmt) site {
	switch s.where {
	case before:
		s.off = tf.Offset(stmt.Pos())
		s.line = tf.Line(stmt.Pos())
	case afterDefer, afterStmt:
		s.off = tf.Offset(stmt.End())
		s.line = tf.Line(stmt.End())
	case loopEnd:
		var body *ast.BlockStmt
		switch st := stmt.(type) {
		case *ast.ForStmt:
			body = st.Body
		case *ast.RangeStmt:
			body = st.Body
		}
		s.off = tf.Offset(body.Rbrace)
		s.line = tf.Line(body.Rbrace)
	}
	ls := lineStart(src, s.off)
	prefix := string(src[ls:s.off])
	switch s.where {
	case before, loopEnd:
		// A line of its own when the statement (or brace) starts its line.
		s.ownLine = strings.TrimSpace(prefix) == ""
		s.indent = prefix
		if s.where == loopEnd && s.ownLine {
			s.indent += "\t"
		}
		if s.ownLine {
			s.off = ls
		}
	case afterDefer, afterStmt:
		le := lineEnd(src, s.off)
		rest := string(src[s.off:le])
		s.ownLine = strings.TrimSpace(rest) == "" || strings.HasPrefix(strings.TrimSpace(rest), "//")
		s.indent = leadingSpace(string(src[lineStart(src, s.off):]))
		if s.ownLine {
			s.off = le + 1
			s.line++
			if le >= len(src) {
				s.off = len(src)
			}
		}
	}
	return s
}

// code is the text inserted at s to make call there: deferred after a
// defer; inline after a defer or at a loop body's closing brace, it ends
// the statement before it ("{ n++ }" takes "; call" before its brace).
func (s site) code(call string) string {
	if s.where == afterDefer {
		call = "defer " + call
	}
	if !s.ownLine && s.where != before {
		call = "; " + call
	}
	return call
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

func lineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	return off
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// testFunc finds the declaration of test function name in the package's
// test files: the file and the offset of the line holding its body's
// first statement, with the name of its *testing.T parameter.
func (fs *files) testFunc(dir, name string) (path string, off, line int, indent, param string, err error) {
	ms, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, m := range ms {
		f, src, perr := fs.parse(m)
		if perr != nil {
			continue
		}
		tf := fs.fset.File(f.Pos())
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != name || fd.Body == nil {
				continue
			}
			ps := fd.Type.Params.List
			if len(ps) != 1 || len(ps[0].Names) != 1 || ps[0].Names[0].Name == "_" {
				return "", 0, 0, "", "", fmt.Errorf("%s: its *testing.T parameter has no name", name)
			}
			if len(fd.Body.List) == 0 {
				return "", 0, 0, "", "", fmt.Errorf("%s: its body is empty", name)
			}
			first := fd.Body.List[0]
			o := tf.Offset(first.Pos())
			ls := lineStart(src, o)
			if strings.TrimSpace(string(src[ls:o])) != "" || tf.Line(first.Pos()) == tf.Line(fd.Body.Lbrace) {
				return "", 0, 0, "", "", fmt.Errorf("%s: its first statement is on the line of its brace", name)
			}
			return m, ls, tf.Line(first.Pos()), string(src[ls:o]), ps[0].Names[0].Name, nil
		}
	}
	return "", 0, 0, "", "", fmt.Errorf("no test function %s in %s", name, dir)
}

// timeName is the name file path imports package time under, and the
// edit that imports it when it does not.
func (fs *files) timeName(path string) (string, *edit, error) {
	f, src, err := fs.parse(path)
	if err != nil {
		return "", nil, err
	}
	for _, im := range f.Imports {
		if im.Path.Value != `"time"` {
			continue
		}
		if im.Name == nil {
			return "time", nil, nil
		}
		if n := im.Name.Name; n != "_" && n != "." {
			return n, nil, nil
		}
	}
	name := "time"
	ast.Inspect(f, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && id.Name == "time" {
			name = "gosct_time" // the file has a time of its own
		}
		return name == "time"
	})
	code := `import "time"`
	if name != "time" {
		code = `import gosct_time "time"`
	}
	tf := fs.fset.File(f.Pos())
	end := f.Name.End()
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			end = g.End()
		}
	}
	off := lineEnd(src, tf.Offset(end))
	line := tf.Line(end) + 1
	if off < len(src) {
		off++
	}
	return name, &edit{file: path, off: off, ownLine: true, line: line, code: code, comment: "gosct confirm"}, nil
}
