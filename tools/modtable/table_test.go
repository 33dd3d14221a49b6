package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A module whose default run was stopped at the bound gets no ratio, no
// rate and no schedules: only that it was stopped.
func TestRenderBoundedRunHasNoFigure(t *testing.T) {
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	ok := &result{Module: "example.com/a@v1.0.0", Date: now, GoVersion: "go1.26.8", CPUs: 2, Rev: "abc", BoundS: 600,
		LoadBefore: "3.0 2.0 1.0", LoadAfter: "5.0 2.0 1.0", CountN: 3,
		GoTest: timed{WallS: 2, CPUS: 1}, GoTestTests: 4,
		CountRuns: 12, CountElapsedS: 3,
		Gosct: timed{WallS: 10, CPUS: 4, Exit: 1}, GosctTests: 4,
		Sum: summary{Schedules: 400, Bugs: 1, ExploreS: 8, SchedulesPerS: 50, Saturated: 2}}
	bounded := &result{Module: "example.com/b@v1.0.0", Date: now.Add(time.Minute), GoVersion: "go1.26.8", CPUs: 2, Rev: "abc", BoundS: 600,
		LoadBefore: "9.0 2.0 1.0", LoadAfter: "7.0 2.0 1.0", CountN: 3,
		GoTest: timed{WallS: 2, CPUS: 1}, CountRuns: 3, CountElapsedS: 1,
		Gosct: timed{WallS: 630, CPUS: 900, Exit: 130, Bounded: true}, GosctTests: 11,
		Sum: summary{Schedules: 7, SchedulesPerS: 3}}
	got := render([]*result{ok, bounded}, 3)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if !strings.Contains(lines[0], "load average from 3.0 to 9.0") || !strings.Contains(lines[0], "go1.26.8") {
		t.Errorf("header does not give the load and Go: %s", lines[0])
	}
	a, b := lines[len(lines)-2], lines[len(lines)-1]
	for _, want := range []string{"5.0x (4.0x)", "400 (2 / 0 / 0)", "| 50 |", "| 4.0 |", "| 12.50 |"} {
		if !strings.Contains(a, want) {
			t.Errorf("row %q lacks %q", a, want)
		}
	}
	if strings.Contains(a, "exit 1") {
		t.Errorf("gosct's exit 1 (bugs) is not a failure: %s", a)
	}
	if !strings.Contains(b, "stopped at the bound (600 s)") {
		t.Errorf("bounded row does not say it was stopped: %s", b)
	}
	for _, bad := range []string{"315", "630", "| 3 |", "| 7 ", "11"} {
		if strings.Contains(b, bad) {
			t.Errorf("bounded row %q gives a figure (%q)", b, bad)
		}
	}
}

func TestSpliceReplacesBetweenMarkers(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "doc.md")
	os.WriteFile(doc, []byte("before\n"+beginMarker+"\nold table\n"+endMarker+"\nafter\n"), 0o644)
	for i := 0; i < 2; i++ { // a rerun replaces, it does not add
		if err := splice(doc, "new table\n"); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(doc)
	if want := "before\n" + beginMarker + "\nnew table\n" + endMarker + "\nafter\n"; string(b) != want {
		t.Errorf("doc:\n%s\nwant:\n%s", b, want)
	}
	os.WriteFile(doc, []byte("no markers\n"), 0o644)
	if err := splice(doc, "t\n"); err == nil {
		t.Error("splice into a file without markers: no error")
	}
}

func TestGoTestRuns(t *testing.T) {
	out := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA/sub","Elapsed":0.1}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.1}
{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.2}
{"Action":"skip","Package":"p","Test":"TestC","Elapsed":0}
{"Action":"fail","Package":"p","Elapsed":1.5}
{"Action":"pass","Package":"q","Elapsed":0.5}
`
	runs, el := goTestRuns([]byte(out))
	if runs != 2 || el != 2 {
		t.Errorf("runs %d, elapsed %v; want 2 top-level runs (skips and subtests left out) in 2 s", runs, el)
	}
}
