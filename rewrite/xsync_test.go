package rewrite

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fetchModule downloads a module with the go command (into the module
// cache) and copies it to a writable directory; the test is skipped when
// the module proxy cannot be reached.
func fetchModule(t *testing.T, mod string) string {
	t.Helper()
	tmp := t.TempDir()
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
		t.Skipf("cannot download %s (module proxy unreachable?): %v %s", mod, err, info.Error)
	}
	dst := filepath.Join(tmp, "src")
	if out, err := exec.Command("cp", "-r", info.Dir, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dst).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v %s", err, out)
	}
	return dst
}

// TestXSyncPassThrough instruments golang.org/x/sync and requires its
// tests to have the same outcome as uninstrumented.
func TestXSyncPassThrough(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads golang.org/x/sync and runs its tests")
	}
	dir := fetchModule(t, "golang.org/x/sync@v0.24.0")
	b := instrument(t, dir, "./...")
	if len(b.Warnings) > 0 {
		t.Errorf("warnings: %v", b.Warnings)
	}
	n := 0
	for _, p := range b.Packages {
		n += len(p.Files)
	}
	if n < 10 {
		t.Errorf("only %d files instrumented", n)
	}
	plain, _ := goCmd(t, dir, "test", "-count=1", "-short", "-v", "./...")
	inst, _ := goCmd(t, dir, "test", "-count=1", "-short", "-v", "-overlay="+b.Overlay, "./...")
	want, got := outcome(plain), outcome(inst)
	if len(want) < 10 {
		t.Fatalf("few results in the plain run:\n%s", plain)
	}
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("outcomes differ\nplain:\n%s\ninstrumented:\n%s\n\ninstrumented output:\n%s",
			strings.Join(want, "\n"), strings.Join(got, "\n"), inst)
	}
}
