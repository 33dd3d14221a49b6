package rewrite

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// outcome is what go test -v reports: the result line of every test and
// package, without timings.
func outcome(out string) []string {
	re := regexp.MustCompile(`^(--- (PASS|FAIL|SKIP): \S+|(ok|FAIL)\s+\S+)`)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if m := re.FindString(strings.TrimSpace(l)); m != "" {
			lines = append(lines, strings.Join(strings.Fields(m), " "))
		}
	}
	sort.Strings(lines)
	return lines
}

// TestPassThroughEquivalence runs the tests of the sample modules twice,
// as written and instrumented (GOSCT_CONFIG unset: the runtime passes
// every operation through), and requires the same outcome for every test.
func TestPassThroughEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	for _, mod := range []string{"testdata/passthru", "testdata/oldloops", "testdata/old116"} {
		t.Run(filepath.Base(mod), func(t *testing.T) {
			b := instrument(t, mod, "./...")
			plain, _ := goCmd(t, b.ModDir, "test", "-count=1", "-v", "./...")
			inst, _ := goCmd(t, b.ModDir, "test", "-count=1", "-v", "-overlay="+b.Overlay, "./...")
			want, got := outcome(plain), outcome(inst)
			if len(want) == 0 {
				t.Fatalf("no test results in the plain run:\n%s", plain)
			}
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("outcomes differ\nplain:\n%s\ninstrumented:\n%s\n\ninstrumented output:\n%s",
					strings.Join(want, "\n"), strings.Join(got, "\n"), inst)
			}
			if len(b.Warnings) > 0 {
				t.Errorf("warnings: %v", b.Warnings)
			}
		})
	}
}
