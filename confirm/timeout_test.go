package confirm

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/replay"
)

func TestBoundFor(t *testing.T) {
	for _, c := range []struct{ took, want time.Duration }{
		{10 * time.Millisecond, minTimeout},
		{time.Second, minTimeout},
		{3100 * time.Millisecond, 9300 * time.Millisecond},
		{20 * time.Second, time.Minute},
	} {
		if got := boundFor(c.took); got != c.want {
			t.Errorf("boundFor(%s) = %s, want %s", c.took, got, c.want)
		}
	}
}

// A test that takes longer than 3 s by itself (smux's keepalive tests
// sleep 3 s) timed out in every run at the old fixed bound, and nothing
// of it could be confirmed: the bound is now measured on the test as it
// is.
func TestAutoTimeoutMeasuresTheTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module slow\n\ngo 1.21\n")
	write("slow_test.go", "package slow\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(1200 * time.Millisecond) }\n\nfunc TestOther(t *testing.T) { time.Sleep(time.Hour) }\n")
	c := &confirmer{opts: Options{Layout: Layout{Dir: dir}}, test: "TestSlow", tmp: t.TempDir()}
	c.opts.defaults()
	bound, why := c.autoTimeout(context.Background())
	if bound < 3600*time.Millisecond || bound >= measureBound {
		t.Errorf("bound %s (%s), want three times the test's 1.2 s at least", bound, why)
	}
	if !strings.HasPrefix(why, "three times the ") {
		t.Errorf("why: %q", why)
	}
}

// gosct test --confirm confirms each bug of a test on its own: the test
// as it is is measured for the first, and its bound kept for the others
// (Bounds), for the same build only.
func TestBoundsMeasureATestOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":        "module quick\n\ngo 1.21\n",
		"quick_test.go": "package quick\n\nimport \"testing\"\n\nfunc TestQuick(t *testing.T) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var bounds Bounds
	measures := 0
	timeout := func(race bool) (time.Duration, string) {
		c := &confirmer{opts: Options{Layout: Layout{Dir: dir}, Race: race, Bounds: &bounds}, test: "TestQuick", tmp: t.TempDir()}
		c.opts.defaults()
		c.opts.Progress = func(s string) {
			if strings.HasSuffix(s, "running it once, to measure it") {
				measures++
			}
		}
		return c.timeout(context.Background())
	}
	b1, why1 := timeout(false)
	b2, why2 := timeout(false)
	if measures != 1 || b1 != b2 || why1 != why2 {
		t.Errorf("two bugs of one test: %d measures, bounds %s (%s) and %s (%s); want one measure, one bound", measures, b1, why1, b2, why2)
	}
	if timeout(true); measures != 2 {
		t.Errorf("another build (-race) was not measured on its own: %d measures", measures)
	}
}

// A confirmation with hundreds of delays (smux's TestWriteFrameInternal
// took 1,389) names the first few on its first line; the patch has all.
func TestSummaryNamesAFewDelays(t *testing.T) {
	r := &Result{Confirmed: true, Same: 3, Runs: 20, How: Yield}
	for i := range 25 {
		r.Delays = append(r.Delays, "a.go:"+string(rune('a'+i)))
	}
	s := r.Summary(nil)
	if !strings.HasSuffix(s, "a.go:j and 15 more (the patch)") || strings.Contains(s, "a.go:k") {
		t.Errorf("summary %q", s)
	}
}

// A goroutine's t.FailNow (a testify require in a goroutine, watermill's
// TestRouter_AddMiddleware_to_router) is expected at the test's own line
// of the goroutine's stack, not testify's.
func TestExpectationOfFailNowInGoroutine(t *testing.T) {
	tr := &replay.Trace{Package: "example.com/router", Bug: &replay.Bug{
		Kind:    "failure",
		Message: "t.FailNow (t.Fatal...) called from goroutine G1 (router_test.go:400), not the test goroutine: only the test's own goroutine may call it",
		Goroutines: []replay.Goroutine{{Stack: "github.com/stretchr/testify/require.NoError({0x7f00})\n" +
			"\t/mod/github.com/stretchr/testify@v1.9.0/require/require.go:1357 +0x93\n" +
			"example.com/router_test.TestRouter_AddMiddleware.func2()\n" +
			"\t/src/router/router_test.go:408 +0x11d\n"}},
	}}
	x, err := expectation(tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.at) != 1 || x.at[0] != "router_test.go:408: " {
		t.Errorf("expected at %q, want the test's check router_test.go:408", x.at)
	}
	if !x.judge("=== RUN   TestRouter_AddMiddleware\n    router_test.go:408: \n        \tError Trace:\t/src/router/router_test.go:408\n--- FAIL: TestRouter_AddMiddleware (0.00s)\n", false).same {
		t.Error("testify's failure at router_test.go:408 not judged the same")
	}
}
