package rewrite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeps instruments a module together with its dependency
// golang.org/x/sync: errgroup is copied out of the module cache, rewritten
// and replaced in the overlaid go.mod; the test passes as before.
func TestDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("needs golang.org/x/sync from the module proxy")
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/depuser/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if out, err := goCmd(t, dir, "mod", "tidy"); err != nil {
		t.Skipf("go mod tidy (module proxy unreachable?): %v\n%s", err, out)
	}
	b, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Deps: true, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Warnings) > 0 {
		t.Errorf("warnings: %v", b.Warnings)
	}
	ov, err := os.ReadFile(b.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	// The overlaid go.mod replaces x/sync with an instrumented copy.
	var gomod []byte
	for _, line := range strings.Split(string(ov), "\n") {
		if strings.Contains(line, "go.mod") {
			f := strings.Split(line, `"`)
			gomod, _ = os.ReadFile(f[len(f)-2])
		}
	}
	i := strings.Index(string(gomod), "replace golang.org/x/sync v0.24.0 => ")
	if i < 0 {
		t.Fatalf("overlaid go.mod has no replace of x/sync:\n%s", gomod)
	}
	copyDir := strings.TrimSpace(strings.SplitN(string(gomod[i:]), "=> ", 2)[1])
	copyDir = strings.SplitN(copyDir, "\n", 2)[0]
	eg, err := os.ReadFile(filepath.Join(copyDir, "errgroup", "errgroup.go"))
	if err != nil || !strings.Contains(string(eg), "gosct.Done(&g.wg)") {
		t.Fatalf("errgroup.go in the copy is not instrumented (%v):\n%.400s", err, eg)
	}
	out, err := goCmd(t, dir, append([]string{"test", "-count=1", "-v", "-overlay=" + b.Overlay}, append(b.Flags, "./...")...)...)
	if err != nil || !hasLine(out, "--- PASS: TestGroup") && !strings.Contains(out, "--- PASS: TestGroup") {
		t.Fatalf("instrumented test failed: %v\n%s", err, out)
	}
}

// TestDepsOldGoLine instruments a dependency whose go.mod says go 1.13
// (replaced by a local directory, so overlaid in place): the hooks are
// generic calls, which go1.13 refuses, so its go.mod is overlaid with the
// go line raised to 1.21, still before per-iteration loop variables: the
// test, which checks the dependency's loop keeps one variable, passes.
func TestDepsOldGoLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented code with go (the whole suite runs it)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/olddep/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	b, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Deps: true, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Warnings) > 0 {
		t.Errorf("warnings: %v", b.Warnings)
	}
	ov, err := os.ReadFile(b.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ov), filepath.Join(dir, "dep", "counter.go")) || !strings.Contains(string(ov), filepath.Join(dir, "dep", "go.mod")) {
		t.Fatalf("the dependency's file and go.mod are not both overlaid:\n%s", ov)
	}
	out, err := goCmd(t, dir, append([]string{"test", "-count=1", "-v", "-overlay=" + b.Overlay}, append(b.Flags, "./...")...)...)
	if err != nil || !strings.Contains(out, "--- PASS: TestOldDep") {
		t.Fatalf("instrumented test failed: %v\n%s", err, out)
	}
}

// TestDepsGo113FromCache instruments go.uber.org/atomic v1.7.0, whose
// go.mod says go 1.13, from the module cache: the copy's go.mod is raised
// to go 1.21 and the build succeeds.
func TestDepsGo113FromCache(t *testing.T) {
	if testing.Short() {
		t.Skip("needs go.uber.org/atomic from the module proxy")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/atomicuser\n\ngo 1.22\n\nrequire go.uber.org/atomic v1.7.0\n",
		"user_test.go": `package atomicuser

import (
	"sync"
	"testing"

	"go.uber.org/atomic"
)

func TestCount(t *testing.T) {
	var n atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); n.Inc() }()
	}
	wg.Wait()
	if n.Load() != 3 {
		t.Errorf("n = %d", n.Load())
	}
}
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := goCmd(t, dir, "mod", "tidy"); err != nil {
		t.Skipf("go mod tidy (module proxy unreachable?): %v\n%s", err, out)
	}
	b, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Deps: true, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	out, err := goCmd(t, dir, append([]string{"test", "-count=1", "-v", "-overlay=" + b.Overlay}, append(b.Flags, "./...")...)...)
	if err != nil || !strings.Contains(out, "--- PASS: TestCount") {
		t.Fatalf("instrumented test failed: %v\n%s", err, out)
	}
}
