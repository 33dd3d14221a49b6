package confirm

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
