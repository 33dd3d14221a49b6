package rewrite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkspace instruments a module of a go.work workspace whose test
// imports another module of the workspace: both are instrumented, the
// overlay edits go.work (the go command ignores the overlaid go.mod's
// require and replace for the other modules' imports in workspace mode),
// and the instrumented test builds and passes.
func TestWorkspace(t *testing.T) {
	if os.Getenv("GOWORK") != "" {
		t.Skip("GOWORK is set: the testdata workspace is not used")
	}
	b := instrument(t, "testdata/workspace/a", "./...")
	work, _ := filepath.Abs("testdata/workspace/go.work")
	bfile, _ := filepath.Abs("testdata/workspace/b/b.go")
	data, err := os.ReadFile(b.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	ov := string(data)
	for _, want := range []string{work, bfile} {
		if !strings.Contains(ov, want) {
			t.Errorf("overlay does not replace %s:\n%s", want, ov)
		}
	}
	if strings.Contains(ov, "go.mod") {
		t.Errorf("overlay replaces a go.mod in workspace mode:\n%s", ov)
	}
	if testing.Short() {
		return
	}
	out, err := goCmd(t, b.ModDir, append(append([]string{"test", "-count=1", "-overlay=" + b.Overlay}, b.Flags...), "./...")...)
	if err != nil {
		t.Fatalf("instrumented workspace test failed: %v\n%s", err, out)
	}
}

// TestWorkspaceRoot: the root of a workspace is in no module; the message
// says so and names the modules.
func TestWorkspaceRoot(t *testing.T) {
	if os.Getenv("GOWORK") != "" {
		t.Skip("GOWORK is set: the testdata workspace is not used")
	}
	root, _ := filepath.Abs("testdata/workspace")
	_, err := Instrument(context.Background(), Options{Dir: root, Patterns: []string{"./..."}, CacheDir: t.TempDir()})
	wantUserError(t, err, "workspace", "go.work", "./a", "./b")
}

func TestOverlayGoWork(t *testing.T) {
	orig := []byte("go 1.18\n\nuse (\n\t./a\n\t./b\n)\n\nreplace github.com/gosct/gosct => ../gosct\n")
	got, err := overlayGoWork("/w/go.work", orig, "/cache/runtime-x", []replacement{{"golang.org/x/sync", "v0.24.0", "/cache/deps/sync"}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{"go 1.21", "default=go1.18", "/cache/runtime-x", "golang.org/x/sync v0.24.0 => /cache/deps/sync", "./a", "./b"} {
		if !strings.Contains(s, want) {
			t.Errorf("go.work overlay lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "../gosct") {
		t.Errorf("go.work overlay keeps the user's replacement of gosct:\n%s", s)
	}
}
