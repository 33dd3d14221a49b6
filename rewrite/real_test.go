package rewrite

import (
	"os"
	"regexp"
	"sort"
	"testing"
)

// TestRealRuntimeHasHooks compiles the instrumented golden packages
// against the real runtime (the embedded gosct.Source) and lists the hooks
// it lacks. Set GOSCT_REAL_RUNTIME=1 to run it: the runtime is written in
// parallel with the rewriter.
func TestRealRuntimeHasHooks(t *testing.T) {
	if os.Getenv("GOSCT_REAL_RUNTIME") == "" {
		t.Skip("set GOSCT_REAL_RUNTIME=1")
	}
	old := runtimeSource
	runtimeSource = embeddedSource
	defer func() { runtimeSource = old }()
	b := instrument(t, "testdata/golden", "./...")
	out, err := goCmd(t, b.ModDir, "test", "-count=1", "-run=^$", "-overlay="+b.Overlay, "./...")
	if err != nil {
		missing := map[string]bool{}
		for _, m := range regexp.MustCompile(`undefined: gosct\.(\w+)`).FindAllStringSubmatch(out, -1) {
			missing[m[1]] = true
		}
		var names []string
		for n := range missing {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Fatalf("instrumented build against the real runtime failed; missing hooks %v\n%s", names, out)
	}
}
