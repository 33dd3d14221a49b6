package bench

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func dirs(ps []*Program) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Dir)
	}
	return strings.Join(s, " ")
}

func TestLoadCorpus(t *testing.T) {
	ps, err := Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	want := "sctbench/x_bad sctbench/x_bad/fixed gobugs/leak gobugs/leak_fixed gobugs/orphan_fixed"
	if got := dirs(ps); got != want {
		t.Fatalf("programs %q, want %q", got, want)
	}
	x := ps[0]
	if x.ID == nil || *x.ID != 7 || x.Suite() != "sctbench" || x.IsFixed() || x.Paper == nil {
		t.Fatalf("x_bad parsed as %+v", x)
	}
	if x.Paper.DFS != nil || x.Paper.IPB == nil || *x.Paper.IPB != 3 || x.Paper.RandBuggy != 11912 {
		t.Errorf("paper figures %+v", x.Paper)
	}
	if !ps[1].IsFixed() || ps[1].FixedOf != "sctbench/x_bad" || ps[2].Suite() != "go" {
		t.Errorf("fixed twin or suite wrong: %+v %+v", ps[1], ps[2])
	}
}

func TestLoadRejectsMisplacedProgram(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "gobugs", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := os.WriteFile(filepath.Join(root, "gobugs", "a", "program.json"), []byte(`{"dir": "gobugs/b", "kind": "leak"}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), `want "gobugs/a"`) {
		t.Fatalf("Load = %v, want an error naming the real directory", err)
	}
}

func TestParseProgramErrors(t *testing.T) {
	for _, s := range []string{`{`, `{"dir": "a"}`, `{"kind": "none"}`} {
		if _, err := ParseProgram([]byte(s)); err == nil {
			t.Errorf("ParseProgram(%s) succeeded", s)
		}
	}
}

func TestLinkTwins(t *testing.T) {
	ps := []*Program{
		{Dir: "sctbench/a", Kind: "failure"},
		{Dir: "sctbench/a/fixed", Kind: "none", FixedOf: "sctbench/a"},
		{Dir: "gobugs/b", Kind: "leak"},
		{Dir: "gobugs/b_fixed", Kind: "none", Buggy: "gobugs/b"},
		{Dir: "gobugs/c", Kind: "leak", Fixed: "gobugs/c_other"},
		{Dir: "gobugs/c_fixed", Kind: "none", Buggy: "gobugs/c"},
	}
	linkTwins(ps)
	if ps[0].Fixed != "sctbench/a/fixed" || ps[2].Fixed != "gobugs/b_fixed" || ps[4].Fixed != "gobugs/c_other" {
		t.Errorf("twins linked as %q %q %q", ps[0].Fixed, ps[2].Fixed, ps[4].Fixed)
	}
}

func TestModuleOf(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "go121", "p", "q"), 0o755)
	os.WriteFile(filepath.Join(root, "go121", "go.mod"), []byte("module m\n"), 0o644)
	if m := moduleOf(root, "go121/p/q"); m != "go121" {
		t.Errorf("moduleOf = %q, want go121", m)
	}
	if m := moduleOf(root, "gobugs/p"); m != "" {
		t.Errorf("moduleOf = %q, want the root module", m)
	}
}

func TestPairsAndSelect(t *testing.T) {
	ps, err := Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := Pairs(ps)
	if len(pairs) != 3 || pairs[0].Fixed == nil || pairs[0].Fixed.Dir != "sctbench/x_bad/fixed" ||
		pairs[1].Fixed == nil || pairs[2].Buggy != nil || pairs[2].Fixed.Dir != "gobugs/orphan_fixed" {
		t.Fatalf("pairs %+v", pairs)
	}
	got := dirs(Select(ps, regexp.MustCompile(`leak$`)))
	if got != "gobugs/leak gobugs/leak_fixed" {
		t.Errorf("Select keeps %q, want the program and its twin", got)
	}
	if got := len(Select(ps, nil)); got != len(ps) {
		t.Errorf("Select(nil) keeps %d of %d", got, len(ps))
	}
}

// TestEveryCorpusProgramIsBenchmarked: every test package of the corpus
// but the performance programs (perf/) has a program.json, so that no
// program, and no fixed twin, is left out of the benchmark and of its
// "no false alarm" claim.
func TestEveryCorpusProgramIsBenchmarked(t *testing.T) {
	root := filepath.Join("..", "testprogs")
	ps, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, p := range ps {
		have[p.Dir] = true
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		// perf/ holds workloads, leakrule/ the cases of the leak rule
		// (checked by cmd/gosct's TestE2ELeakRule against leak.json),
		// timing/ correct programs (TestE2ETimingCorrect).
		if !strings.HasPrefix(rel, "perf/") && !strings.HasPrefix(rel, "leakrule/") && !strings.HasPrefix(rel, "timing/") && !have[rel] {
			t.Errorf("testprogs/%s has tests but no program.json: the benchmark leaves it out", rel)
			have[rel] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range Pairs(ps) {
		if pr.Buggy == nil {
			t.Errorf("fixed program %s names no buggy program of the corpus", pr.Fixed.Dir)
		}
	}
}
