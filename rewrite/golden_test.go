package rewrite

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata/golden")

// TestGolden checks the rewritten form of every construct: each file of
// testdata/golden/*/ is compared with its .golden file (the instrumented
// source without //line directives). A file left unchanged has none.
func TestGolden(t *testing.T) {
	b := instrument(t, "testdata/golden", "./...")
	got := map[string][]byte{}
	for _, p := range b.Packages {
		for orig, rw := range p.Files {
			data, err := os.ReadFile(rw)
			if err != nil {
				t.Fatal(err)
			}
			got[orig] = displaySource(data)
		}
	}
	files, _ := filepath.Glob("testdata/golden/*/*.go")
	sort.Strings(files)
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		want, err := os.ReadFile(f + ".golden")
		if *update {
			if g, ok := got[abs]; ok {
				if err := os.WriteFile(f+".golden", g, 0o666); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Remove(f + ".golden")
			}
			continue
		}
		g, ok := got[abs]
		switch {
		case !ok && err == nil:
			t.Errorf("%s: not rewritten, want the rewriting in %s.golden", f, f)
		case ok && err != nil:
			t.Errorf("%s: rewritten, but no %s.golden:\n%s", f, f, g)
		case ok && !bytes.Equal(g, want):
			t.Errorf("%s: rewritten form differs from %s.golden:\n%s", f, f, unifiedDiff(f, splitLines(want), splitLines(g)))
		}
	}
}

// TestGoldenCompiles type-checks and compiles the instrumented golden
// packages, with their tests, against the stub runtime.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented code with go (the whole suite runs it)")
	}
	b := instrument(t, "testdata/golden", "./...")
	out, err := goCmd(t, b.ModDir, "test", "-count=1", "-run=^$", "-overlay="+b.Overlay, "./...")
	if err != nil {
		t.Fatalf("instrumented build failed: %v\n%s", err, out)
	}
}
