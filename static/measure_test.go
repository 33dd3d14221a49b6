package static

import (
	"context"
	"encoding/json"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gosct/gosct/rewrite"
	"golang.org/x/tools/go/packages"
)

// TestMeasureXSync measures the static analysis of guided search on
// golang.org/x/sync/... against the plain build of its tests (go test
// -count=1 -run XXX), cold (empty build cache) and warm, in one run:
//
//   - standalone: loading the packages with syntax and types, then the
//     analysis (SSA, call graph, targets, distances), as a tool that
//     loads for itself would;
//   - in gosct test: the analysis alone, since it runs on the packages
//     the rewriter loads anyway (rewrite.Options.Analyze).
//
// It only runs with GOSCT_MEASURE=1: its figures are for
// docs/performance.md, not assertions.
func TestMeasureXSync(t *testing.T) {
	if os.Getenv("GOSCT_MEASURE") == "" {
		t.Skip("set GOSCT_MEASURE=1 to measure")
	}
	dir := fetchModule(t, "golang.org/x/sync@v0.24.0")
	plain := func() time.Duration {
		start := time.Now()
		cmd := exec.Command("go", "test", "-count=1", "-run", "XXX", "./...")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return time.Since(start)
	}
	standalone := func() (time.Duration, Stats) {
		start := time.Now()
		fset := token.NewFileSet()
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
				packages.NeedImports | packages.NeedTypes | packages.NeedTypesInfo |
				packages.NeedSyntax | packages.NeedModule | packages.NeedTypesSizes,
			Dir: dir, Tests: true, Fset: fset,
		}
		pkgs, err := packages.Load(cfg, "./...")
		if err != nil {
			t.Fatal(err)
		}
		_, st, err := CachedGuide(fset, pkgs, t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return time.Since(start), st
	}
	inGosct := func() (analysis, instrument time.Duration) {
		start := time.Now()
		cache := t.TempDir()
		_, err := rewrite.Instrument(context.Background(), rewrite.Options{Dir: dir, Patterns: []string{"./..."}, CacheDir: cache,
			Analyze: func(l *rewrite.Loaded) error {
				s := time.Now()
				_, _, err := CachedGuide(l.Fset, l.Packages, l.CacheDir, Options{})
				analysis = time.Since(s)
				return err
			}})
		if err != nil {
			t.Fatal(err)
		}
		return analysis, time.Since(start)
	}
	// Each side gets a build cache of its own, empty at first: the
	// analysis needs the dependencies' export data, which go list
	// compiles as the build would.
	plainCache, aloneCache := t.TempDir(), t.TempDir()
	t.Setenv("GOCACHE", plainCache)
	coldPlain := plain()
	t.Setenv("GOCACHE", aloneCache)
	coldAlone, st := standalone()
	t.Setenv("GOCACHE", plainCache)
	warmPlain := plain()
	t.Setenv("GOCACHE", aloneCache)
	warmAlone, _ := standalone()
	analysis, inst := inGosct()
	t.Logf("golang.org/x/sync/...: %d functions, %d lines, %d keys, %d key sequences (SSA and call graph %v of the analysis)",
		st.Funcs, st.Lines, st.Keys, st.Seqs, st.Load.Round(time.Millisecond))
	t.Logf("cold: plain build %v; standalone analysis (load + analyze) %v = %.2fx", coldPlain.Round(time.Millisecond), coldAlone.Round(time.Millisecond), float64(coldAlone)/float64(coldPlain))
	t.Logf("warm: plain build %v; standalone analysis %v = %.2fx", warmPlain.Round(time.Millisecond), warmAlone.Round(time.Millisecond), float64(warmAlone)/float64(warmPlain))
	t.Logf("in gosct test: analysis %v on the rewriter's packages (rewrite with it %v) = %.2fx the warm plain build", analysis.Round(time.Millisecond), inst.Round(time.Millisecond), float64(analysis)/float64(warmPlain))
}

// fetchModule downloads mod and copies it to a writable directory.
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
