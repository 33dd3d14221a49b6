package bench

import (
	"strings"
	"testing"
)

func TestSeedStats(t *testing.T) {
	cases := []struct {
		first []int
		cell  string
	}{
		{[]int{1, 2, 3}, "2 (3/3)"},
		{[]int{1, 2, 3, 4}, "2.5 (4/4)"},
		{[]int{5, 0, 0}, "> 100 (1/3)"},
		{[]int{5, 7, 0}, "7 (2/3)"},
		{[]int{5, -1, 0}, "> 100 (1/3), 1 err"},
	}
	for _, c := range cases {
		if got := stats(c.first).cell(100); got != c.cell {
			t.Errorf("%v: %q, want %q", c.first, got, c.cell)
		}
	}
}

func TestSections(t *testing.T) {
	doc := "# report\n\ntext\n"
	doc = putSection(doc, "a", "Section A", "body a")
	doc = putSection(doc, "b", "Section B", "body b")
	doc = putSection(doc, "a", "Section A", "new a")
	if strings.Count(doc, "Section A") != 1 || !strings.Contains(doc, "new a") || strings.Contains(doc, "body a") {
		t.Fatalf("replacing a section:\n%s", doc)
	}
	secs := sections(doc)
	if len(secs) != 2 || !strings.Contains(secs[0], "new a") || !strings.Contains(secs[1], "body b") {
		t.Fatalf("sections: %q", secs)
	}
	if !strings.HasPrefix(doc, "# report\n\ntext\n") {
		t.Fatalf("the rest of the file changed:\n%s", doc)
	}
	// A new section goes before the reading, which ends the file.
	doc = putSection("# report\n\n## Reading the figures\n\nwords\n", "c", "Section C", "body c")
	if !strings.HasSuffix(doc, "## Reading the figures\n\nwords\n") || !strings.Contains(doc, "body c") {
		t.Fatalf("section and reading:\n%s", doc)
	}
}

func TestVersus(t *testing.T) {
	rep := &SeedReport{Schedules: 100, Strategies: []string{"guided", "random"}, Rows: []*SeedRow{
		{Program: "p1", First: map[string][]int{"guided": {2, 2, 2}, "random": {4, 4, 4}}},
		{Program: "p2", First: map[string][]int{"guided": {6, 6, 6}, "random": {2, 2, 2}}},
		{Program: "p3", First: map[string][]int{"guided": {1, 1, 1}, "random": {0, 0, 0}}},
		{Program: "f", Fixed: true, First: map[string][]int{"guided": {0}, "random": {0}}},
	}}
	var b strings.Builder
	rep.versus(&b, "guided", "random")
	s := b.String()
	for _, want := range []string{"better on 2 of 3 programs, within 2x on 2", "worst 3x (`p2`)", "`p2` 3x"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in %q", want, s)
		}
	}
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"--programs", "^(a|b)/", "--title", "it's here", "--seeds", "3"})
	want := `--programs '^(a|b)/' --title 'it'\''s here' --seeds 3`
	if got != want {
		t.Errorf("%s, want %s", got, want)
	}
	if w := withFlag("x --out a.md --seeds 3", "--out", "b.md"); w != "x --out b.md --seeds 3" {
		t.Errorf("withFlag: %s", w)
	}
}

func TestSeedTotals(t *testing.T) {
	rep := &SeedReport{Schedules: 100, Strategies: []string{"a", "b"}, Rows: []*SeedRow{
		{Program: "p1", First: map[string][]int{"a": {2, 2, 2}, "b": {4, 0, 4}}},
		{Program: "p2", First: map[string][]int{"a": {8, 8, 8}, "b": {0, 0, 0}}},
		{Program: "f", Fixed: true, First: map[string][]int{"a": {0}, "b": {0}}},
	}}
	var b strings.Builder
	rep.totals(&b)
	s := b.String()
	for _, want := range []string{"| a | 2 / 2 | 2 / 2 | 6 / 6 | 4 |", "| b | 1 / 2 | 0 / 2 | 2 / 6 | 20 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in %q", want, s)
		}
	}
}
