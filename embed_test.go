package gosct

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
	"testing"
)

// TestSourceHoldsWhatTheRewriterNeeds checks Source against the packages
// an instrumented test binary links (runtime and the packages of this
// module it imports, as go list sees them): every non-test Go, assembly
// and header file of those packages, for every platform, and nothing else.
func TestSourceHoldsWhatTheRewriterNeeds(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./runtime").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/gosct/gosct/"
	want := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, mod) {
			continue
		}
		dir := strings.TrimPrefix(p, mod)
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && needed(n) {
				want[path.Join(dir, n)] = true
			}
		}
	}
	got := map[string]bool{}
	err = fs.WalkDir(Source, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got[p] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sorted(want) {
		if !got[f] {
			t.Errorf("Source lacks %s: add %s to embed.go's //go:embed lines", f, patternFor(f))
		}
	}
	for _, f := range sorted(got) {
		if !want[f] {
			t.Errorf("Source holds %s, which no instrumented test binary needs", f)
		}
	}
}

// needed reports the files of a package the unpacked copy must have: its
// Go files (of any platform) but the tests, and its assembly and headers.
func needed(name string) bool {
	switch path.Ext(name) {
	case ".go":
		return !strings.HasSuffix(name, "_test.go")
	case ".s", ".h":
		return true
	}
	return false
}

// patternFor is a //go:embed pattern that takes file f (a non-test file)
// and no test file.
func patternFor(f string) string {
	dir, name := path.Split(f)
	stem, ext := strings.TrimSuffix(name, path.Ext(name)), path.Ext(name)
	if ext != ".go" {
		return dir + "*" + ext
	}
	// The shortest ending of "_test" that the stem does not end with:
	// the pattern takes the stem's files and leaves "_test" ones.
	const test = "_test"
	for i := 1; i <= len(test) && i <= len(stem); i++ {
		if end := test[len(test)-i:]; !strings.HasSuffix(stem, end) {
			return dir + "*[^" + end[:1] + "]" + end[1:] + ext
		}
	}
	return f // "test.go", "est.go", ...: the name itself
}

func sorted(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

func TestPatternFor(t *testing.T) {
	for f, want := range map[string]string{
		"runtime/chan.go":     "runtime/*[^t].go",
		"runtime/context.go":  "runtime/*[^s]t.go",
		"replay/list.go":      "replay/*[^e]st.go",
		"replay/manifest.go":  "replay/*[^t]est.go",
		"runtime/latest.go":   "runtime/*[^_]test.go",
		"runtime/test.go":     "runtime/test.go",
		"runtime/est.go":      "runtime/est.go",
		"runtime/goid_arm.s":  "runtime/*.s",
		"strategies/split.go": "strategies/*[^s]t.go",
	} {
		if got := patternFor(f); got != want {
			t.Errorf("patternFor(%s) = %s, want %s", f, got, want)
		}
	}
}
