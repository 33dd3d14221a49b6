package rewrite

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestMeasureXSync measures rewrite+build of golang.org/x/sync/... (as the
// command runs it: go test -overlay with Build.Flags) against the plain
// build (go test -count=1 -run XXX), cold (empty build cache) and warm, in
// one run. It only runs with GOSCT_MEASURE=1: it takes a
// minute and its figures are for docs/performance.md, not assertions.
func TestMeasureXSync(t *testing.T) {
	if os.Getenv("GOSCT_MEASURE") == "" {
		t.Skip("set GOSCT_MEASURE=1 to measure")
	}
	dir := fetchModule(t, "golang.org/x/sync@v0.24.0")
	plain := func() time.Duration {
		start := time.Now()
		if out, err := goCmd(t, dir, "test", "-count=1", "-run", "XXX", "./..."); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return time.Since(start)
	}
	cache := t.TempDir()
	instrumented := func() (time.Duration, time.Duration) {
		start := time.Now()
		b, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		rw := time.Since(start)
		args := append([]string{"test", "-count=1", "-run", "XXX", "-overlay=" + b.Overlay}, b.Flags...)
		if out, err := goCmd(t, dir, append(args, "./...")...); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return rw, time.Since(start)
	}
	t.Setenv("GOCACHE", t.TempDir())
	coldPlain := plain()
	warmPlain := plain()
	t.Setenv("GOCACHE", t.TempDir())
	coldRw, coldInst := instrumented()
	warmRw, warmInst := instrumented()
	t.Logf("golang.org/x/sync/... (go test -count=1 -run XXX)")
	t.Logf("cold: plain %v, gosct %v (rewrite %v) = %.2fx", coldPlain.Round(time.Millisecond), coldInst.Round(time.Millisecond), coldRw.Round(time.Millisecond), float64(coldInst)/float64(coldPlain))
	t.Logf("warm: plain %v, gosct %v (rewrite %v) = %.2fx", warmPlain.Round(time.Millisecond), warmInst.Round(time.Millisecond), warmRw.Round(time.Millisecond), float64(warmInst)/float64(warmPlain))
}
