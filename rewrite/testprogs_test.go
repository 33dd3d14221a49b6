package rewrite

import (
	"os"
	"strings"
	"testing"
)

// TestTestprogsPassThrough runs the corpus (../testprogs, a module of its
// own) plain and instrumented in pass-through mode and compares the
// outcome of every test. Some corpus programs are racy under Go's own
// scheduler, so the run is opt-in: GOSCT_TESTPROGS=1 (a few minutes).
func TestTestprogsPassThrough(t *testing.T) {
	if os.Getenv("GOSCT_TESTPROGS") == "" {
		t.Skip("set GOSCT_TESTPROGS=1 to run the corpus")
	}
	b := instrument(t, "..", "./testprogs/...")
	if len(b.Warnings) > 0 {
		t.Errorf("warnings: %v", b.Warnings)
	}
	args := []string{"test", "-vet=off", "-count=1", "-timeout=20s", "-v"}
	plain, _ := goCmd(t, b.ModDir, append(args, "./...")...)
	inst, _ := goCmd(t, b.ModDir, append(args, "-overlay="+b.Overlay, "./...")...)
	want, got := outcome(plain), outcome(inst)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("outcomes differ\nplain:\n%s\ninstrumented:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	t.Logf("%d results compared", len(want))
}
