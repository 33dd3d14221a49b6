package confirm

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// placeFixture places, in testdata/place/place.go, a hold for each of its
// operations ("op k" on the line of op(k)) on the pass 0 and the pass 1
// of the goroutine there (a loop header's later passes are held
// elsewhere), as a call gosctConfirm(k): the file's copy with them.
func placeFixture(t *testing.T, directives bool) (src []byte, ops map[int]int) {
	t.Helper()
	path, err := filepath.Abs("testdata/place/place.go")
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ops = map[int]int{}
	mark := regexp.MustCompile(`op (\d+)`)
	sc := bufio.NewScanner(strings.NewReader(string(orig)))
	for line := 1; sc.Scan(); line++ {
		_, c, ok := strings.Cut(sc.Text(), "// op ")
		if !ok {
			continue
		}
		for _, m := range mark.FindAllStringSubmatch("op "+c, -1) {
			k, _ := strconv.Atoi(m[1])
			ops[k] = line
		}
	}
	if len(ops) == 0 {
		t.Fatalf("no operation marked in %s", path)
	}
	fs := newFiles()
	ps := &patchSet{}
	seen := map[[2]int]bool{}
	for k, line := range ops {
		for n := 0; n < 2; n++ {
			s, err := fs.at(path, line, n, true)
			if err != nil {
				t.Fatalf("op %d (line %d), pass %d: %v", k, line, n, err)
			}
			if seen[[2]int{k, s.off}] {
				continue
			}
			seen[[2]int{k, s.off}] = true
			ps.edits = append(ps.edits, edit{file: path, off: s.off, ownLine: s.ownLine, line: s.line, code: s.code("gosctConfirm(" + strconv.Itoa(k) + ")"), indent: s.indent, seq: k})
		}
	}
	return ps.apply(path, orig, directives), ops
}

// TestPlaceCompiles: a hold before a case, a select's communication, an
// else if's condition, a loop's condition and post statement, and in
// one-line bodies, builds, in the user's patch and in go test's copy.
func TestPlaceCompiles(t *testing.T) {
	for _, directives := range []bool{false, true} {
		src, _ := placeFixture(t, directives)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "place.go", src, 0)
		if err != nil {
			t.Fatalf("directives %v: the patched file does not parse: %v\n%s", directives, err, src)
		}
		stub, err := parser.ParseFile(fset, "gosct_confirm.go", "package main\n\nfunc gosctConfirm(k int) { log = append(log, -k) }\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (&types.Config{}).Check("place", fset, []*ast.File{f, stub}, nil); err != nil {
			t.Errorf("directives %v: the patched file does not compile: %v\n%s", directives, err, src)
		}
	}
}

// TestPlaceRunsFirst runs the patched fixture: each operation runs after
// a hold of its own since its previous run.
func TestPlaceRunsFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	src, ops := placeFixture(t, true)
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":           "module place\n\ngo 1.21\n",
		"place.go":         string(src),
		"gosct_confirm.go": "package main\n\nfunc gosctConfirm(k int) { log = append(log, -k) }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s\n%s", err, out, src)
	}
	held := map[int]bool{}
	ran := map[int]int{}
	for _, l := range strings.Fields(string(out)) {
		e, err := strconv.Atoi(l)
		if err != nil {
			t.Fatalf("output %q", out)
		}
		if e < 0 {
			held[-e] = true
			continue
		}
		if !held[e] {
			t.Errorf("op %d (place.go:%d) ran without a hold before it (its run %d)", e, ops[e], ran[e]+1)
		}
		held[e] = false
		ran[e]++
	}
	for k, line := range ops {
		if ran[k] == 0 {
			t.Errorf("op %d (place.go:%d) never ran: the fixture tests nothing there", k, line)
		}
	}
}
