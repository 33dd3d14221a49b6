package rewrite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleShapes builds and runs, through the overlay, the fixture
// modules of testdata/shapes: one for each shape of module that go test
// builds and an instrumented build might not (go lines 1.11 and 1.12, a
// go.mod before 1.17 that does not list the modules its dependencies bring
// in, no go.sum, old and new build constraints with -tags, a vendor
// directory), with their dependency modules instrumented as gosct test
// does by default. Every test must have the outcome go test gives it.
func TestModuleShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	for _, c := range []struct{ mod, tags string }{
		{"go112", ""},
		{"go111", ""},
		{"tags", "gosctshape"},
		{"vendored", ""},
	} {
		t.Run(c.mod, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("testdata", "shapes", c.mod))
			if err != nil {
				t.Fatal(err)
			}
			b, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Tags: c.tags, Deps: true, CacheDir: t.TempDir()})
			if err != nil {
				t.Fatalf("Instrument: %v", err)
			}
			args := []string{"test", "-count=1", "-v"}
			if c.tags != "" {
				args = append(args, "-tags="+c.tags)
			}
			plain, err := goCmd(t, dir, append(args, "./...")...)
			if err != nil {
				t.Fatalf("plain go test fails:\n%s", plain)
			}
			args = append(args, b.Flags...)
			inst, _ := goCmd(t, dir, append(args, "-overlay="+b.Overlay, "./...")...)
			want, got := outcome(plain), outcome(inst)
			if len(want) == 0 {
				t.Fatalf("no test results in the plain run:\n%s", plain)
			}
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("outcomes differ\nplain:\n%s\ninstrumented:\n%s\n\ninstrumented output:\n%s",
					strings.Join(want, "\n"), strings.Join(got, "\n"), inst)
			}
		})
	}
}
