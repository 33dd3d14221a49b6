package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCells(t *testing.T) {
	three := 3
	cases := map[string]string{
		Cell(&Result{Found: true, First: 12, Buggy: -1}):                         "✓ 12",
		Cell(&Result{Found: true, First: 1, Buggy: 25, Schedules: 100}):          "✓ 1 · 25%",
		Cell(&Result{Found: true, First: 1, Buggy: 1, Schedules: 10000}):         "✓ 1 · 0.010%",
		Cell(&Result{Found: true, First: 1, Buggy: 55, Schedules: 1000}):         "✓ 1 · 5.5%",
		Cell(&Result{Buggy: -1}):                                                 "✗",
		Cell(&Result{Buggy: -1, Exhausted: true}):                                "✗ all",
		Cell(&Result{Err: "x"}):                                                  "err",
		Cell(nil):                                                                "",
		PaperCell(&Paper{Limit: 100000, Rand: &three, RandBuggy: 50000}, "rand"): "✓ 3 · 50%",
		PaperCell(&Paper{Limit: 100000, IPB: &three}, "ipb"):                     "✓ 3",
		PaperCell(&Paper{Limit: 100000}, "dfs"):                                  "✗",
		PaperCell(nil, "dfs"):                                                    "",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("cell %q, want %q", got, want)
		}
	}
}

func testReport(t *testing.T, alarm bool) *Report {
	ps, err := Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := ParseStrategies("random,pb,portfolio")
	var l []*Result
	for _, p := range ps {
		for _, s := range st {
			r := &Result{Program: p.Dir, Strategy: s.Name, Buggy: -1, Schedules: 100, WallS: 0.5, ExploreS: 0.25}
			if !p.IsFixed() && s.Name != "pb" {
				r.Found, r.First, r.Kind = true, 2, p.Kind
			}
			if alarm && p.Dir == "gobugs/leak_fixed" && s.Name == "portfolio" {
				r.Found, r.First, r.Kind, r.Message = true, 9, "leak", "goroutine | left blocked\nmore"
			}
			l = append(l, r)
		}
	}
	return &Report{Programs: ps, Strategies: st, Schedules: 100, Seed: 1, Command: "go run ./cmd/gosct-bench", Machine: "m", List: l}
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	testReport(t, false).Markdown(&b)
	md := b.String()
	for _, want := range []string{
		"**None**: no strategy reported a bug on any of the 3 fixed (correct) programs.",
		"| random | 1 / 1 | 1 / 1 (paper random) | 1 / 1 | 0 / 3 | 0 | 2 s |",
		"| pb | 0 / 1 | 1 / 1 (paper IPB) | 0 / 1 | 0 / 3 | 0 | 2 s |",
		"| portfolio | 1 / 1 |  | 1 / 1 | 0 / 3 | 0 | 2 s |",
		"| 7 | CS.x_bad | failure | ✓ 2 | ✗ | ✓ 2 | ✓ 8 · 12% | ✓ 5 · 20% | ✓ 3 | ✓ 12 | ✗ | ok |",
		"| gobugs/leak | leak | ✓ 2 | ✗ | ✓ 2 | ok |",
		"| gobugs/orphan_fixed | 0.50s / 400 | 0.50s / 400 | 0.50s / 400 |",
		"| pb vs paper IPB | — | CS.x_bad |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if rep := testReport(t, false); len(rep.Check()) != 2 {
		t.Errorf("Check = %q, want the two misses of pb", rep.Check())
	}
}

func TestMarkdownFalseAlarm(t *testing.T) {
	rep := testReport(t, true)
	var b bytes.Buffer
	rep.Markdown(&b)
	md := b.String()
	for _, want := range []string{
		"**1 false alarm** on the 3 fixed programs",
		"| gobugs/leak_fixed | portfolio | leak | 9 | goroutine \\| left blocked |",
		"| gobugs/leak | leak | ✓ 2 | ✗ | ✓ 2 | **FALSE ALARM** (portfolio) |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	found := false
	for _, p := range rep.Check() {
		found = found || strings.Contains(p, "gobugs/leak_fixed: portfolio reported a leak on a correct program")
	}
	if !found {
		t.Errorf("Check misses the false alarm: %q", rep.Check())
	}
	var s bytes.Buffer
	rep.Summary(&s)
	if !strings.Contains(s.String(), "FALSE ALARM: gobugs/leak_fixed under portfolio") {
		t.Errorf("summary:\n%s", s.String())
	}
}

func TestErrSummary(t *testing.T) {
	rep := &Report{Budget: 10 * time.Second}
	hung := &Result{Err: "the test binary exited with status 2 without reporting a test:\ngoroutine 1", WallS: 20.01, Found: true, Kind: "deadlock", First: 3}
	want := "the test binary exited with status 2 without reporting a test (it hung: killed by go test's -timeout after 20 s); a deadlock had been reported at schedule 3"
	if got := rep.errSummary(hung); got != want {
		t.Errorf("errSummary = %q, want %q", got, want)
	}
	if got := rep.errSummary(&Result{Err: "build: x\ny", WallS: 1}); got != "build: x" {
		t.Errorf("errSummary = %q", got)
	}
}

func TestRawRoundTrip(t *testing.T) {
	rep := testReport(t, true)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	back := &Report{Programs: rep.Programs, Strategies: rep.Strategies}
	if err := json.Unmarshal(b, back); err != nil {
		t.Fatal(err)
	}
	var m1, m2 bytes.Buffer
	rep.Markdown(&m1)
	back.Markdown(&m2)
	if m1.String() != m2.String() {
		t.Errorf("a report read back renders differently")
	}
}

func TestExhaustion(t *testing.T) {
	rep := testReport(t, false)
	rep.Strategies, _ = ParseStrategies("dfs,dpor,dpor-states")
	rep.List = nil
	unproved := "" // the buggy program dpor-states exhausts, unproved
	for _, p := range rep.Programs {
		for _, s := range rep.Strategies {
			r := &Result{Program: p.Dir, Strategy: s.Name, Buggy: -1, Schedules: 100}
			switch {
			case !p.IsFixed() && s.Name == "dpor-states" && unproved == "" && p.Dir != "gobugs/leak":
				unproved = p.Dir
				r.Exhausted, r.Unproved, r.Schedules = true, true, 4
			case p.IsFixed() && s.Name == "dfs":
			case p.IsFixed() && s.Name == "dpor":
				r.Exhausted, r.Schedules = true, 10
			case p.IsFixed():
				r.Exhausted, r.Schedules = true, 8
			case s.Name != "dpor-states":
				r.Found, r.First, r.Kind = true, 3, p.Kind
			}
			rep.List = append(rep.List, r)
		}
	}
	rep.results = nil
	var b bytes.Buffer
	rep.Markdown(&b)
	md := b.String()
	for _, want := range []string{
		"## Partial-order reduction: schedules to exhaust the correct programs",
		"Exhausted, of 3 correct programs: dfs 0, dpor 3, dpor-states 3.",
		"| gobugs/leak_fixed | did not exhaust within 100 | 10 | 8 |",
		"dpor exhausted 3 programs dfs did not.",
		"Where both dpor and dpor-states exhausted a program (3), dpor-states ran 24 schedules to dpor's 30 (20% fewer; at most 20% fewer on one program).",
		"Found, of 2 buggy programs: dfs 2, dpor 2, dpor-states 0.",
		"gobugs/leak: dfs found the leak at schedule 3, dpor-states missed it in 100 schedules",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if got, u := rep.Covers("dfs", "dpor"); len(got) != 0 || len(u) != 0 {
		t.Errorf("Covers(dfs, dpor) = %q, %q", got, u)
	}
	// A miss in a search dpor-states says was incomplete is set apart.
	if got, u := rep.Covers("dfs", "dpor-states"); len(got) != 1 || len(u) != 1 || !strings.HasPrefix(u[0], unproved+":") {
		t.Errorf("Covers(dfs, dpor-states) = %q, unchecked %q; want one of each, %s unchecked", got, u, unproved)
	}
	// The section alone, in a file, between its markers.
	f := filepath.Join(t.TempDir(), "results.md")
	os.WriteFile(f, []byte("# results\n\nbefore\n"), 0o644)
	for i := 0; i < 2; i++ {
		if err := writeSection(f, exhaustionBegin, exhaustionEnd, "", rep.Exhaustion); err != nil {
			t.Fatal(err)
		}
	}
	doc, _ := os.ReadFile(f)
	if n := strings.Count(string(doc), exhaustionBegin); n != 1 || !strings.HasPrefix(string(doc), "# results\n\nbefore\n") {
		t.Errorf("section written %d times, or the rest lost:\n%s", n, doc)
	}
}
