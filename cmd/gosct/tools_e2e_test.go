package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// End-to-end tests of what gosct hands to the tools Go developers run:
// the location that starts every bug report, go test's JSON stream read
// by gotestsum, CI annotations, the coverage report. The fixtures are in
// testdata/toolsmod, testdata/e2emod and the testprogs corpus.

func toolsDir(t *testing.T) string {
	d, err := filepath.Abs(filepath.Join("testdata", "toolsmod"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// wantLines reads the lines of a fixture marked "// want: KIND".
func wantLines(t *testing.T, file string) map[string][]int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int{}
	for i, l := range strings.Split(string(data), "\n") {
		if _, kind, ok := strings.Cut(l, "// want: "); ok {
			out[strings.TrimSpace(kind)] = append(out[strings.TrimSpace(kind)], i+1)
		}
	}
	return out
}

// TestE2EBugLocations: every kind of bug report starts with
// "file:line: kind: message" at the marked line, the file relative to the
// working directory, in --json (file, line, report) and for people.
func TestE2EBugLocations(t *testing.T) {
	dir := toolsDir(t)
	want := wantLines(t, filepath.Join(dir, "where", "where_test.go"))
	r := runGosct(t, dir, "test", "--json", "--seed", "1", "--races", "report", "--schedules", "300", "--trace-dir", t.TempDir(), "./where")
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	kinds := map[string]bool{}
	for _, b := range bugEvents(t, r) {
		kind, _ := b["kind"].(string)
		kinds[kind] = true
		file, _ := b["file"].(string)
		line, _ := b["line"].(float64)
		if file != "where/where_test.go" || !containsInt(want[kind], int(line)) {
			t.Errorf("%s in %s: location %s:%v, want where/where_test.go at one of lines %v", kind, b["test"], file, line, want[kind])
		}
		prefix := fmt.Sprintf("%s:%d: %s: ", file, int(line), kind)
		if rep, _ := b["report"].(string); !strings.HasPrefix(rep, prefix) {
			t.Errorf("%s report does not start with %q:\n%s", kind, prefix, rep)
		}
	}
	for _, k := range []string{"deadlock", "leak", "panic", "failure", "race"} {
		if !kinds[k] {
			t.Errorf("no %s found:\n%s", k, r)
		}
	}

	// For people: the location line comes right after the --- BUG line,
	// at the start of the line, where editors' error formats find it.
	h := runGosct(t, dir, "test", "--seed", "1", "--run", "TestDeadlock", "--trace-dir", t.TempDir(), "./where")
	lines := strings.Split(h.stdout, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "--- BUG deadlock in TestDeadlock") {
			if i+1 >= len(lines) || !regexp.MustCompile(`^where/where_test\.go:(13|19): deadlock: `).MatchString(lines[i+1]) {
				t.Errorf("the line after %q is not the location:\n%s", l, h)
			}
			return
		}
	}
	t.Errorf("no deadlock report:\n%s", h)
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// goEvent is what go test -json's readers decode.
type goStreamEvent struct {
	Time        string
	Action      string
	Package     string
	Test        string
	Elapsed     *float64
	Output      *string
	FailedBuild string
	ImportPath  string
	Key, Value  string
}

// checkGoStream checks the stream as a reader of go test -json relies on
// it: JSON lines of known actions, a start before anything else of a
// package, every test started once and ended once, a package's end last.
// It returns the actions that ended each test and package ("" key) and
// the output of each test.
func checkGoStream(t *testing.T, stream string) (ends map[string]string, outputs map[string]string) {
	t.Helper()
	ends, outputs = map[string]string{}, map[string]string{}
	started, running, pkgDone := map[string]bool{}, map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e goStreamEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if e.Action == "build-output" || e.Action == "build-fail" {
			continue
		}
		if e.Package == "" || e.Time == "" {
			t.Errorf("event without Package or Time: %s", sc.Text())
		}
		if pkgDone[e.Package] {
			t.Errorf("event after the end of %s: %s", e.Package, sc.Text())
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "start":
			if started[e.Package] {
				t.Errorf("second start of %s", e.Package)
			}
			started[e.Package] = true
			continue
		case "run":
			if running[key] || ends[key] != "" {
				t.Errorf("%s run twice", key)
			}
			running[key] = true
		case "output":
			if e.Output == nil {
				t.Errorf("output without Output: %s", sc.Text())
			} else {
				outputs[key] += *e.Output
			}
		case "attr":
			if e.Key == "" || !json.Valid([]byte(e.Value)) {
				t.Errorf("attr: %s", sc.Text())
			}
		case "pass", "fail", "skip":
			if e.Elapsed == nil {
				t.Errorf("%s without Elapsed: %s", e.Action, sc.Text())
			}
			if e.Test == "" {
				pkgDone[e.Package] = true
			} else if !running[key] {
				t.Errorf("%s of %s, which did not run", e.Action, key)
			}
			if ends[key] != "" {
				t.Errorf("%s ended twice", key)
			}
			ends[key] = e.Action
			running[key] = false
		default:
			t.Errorf("unknown action %q", e.Action)
		}
		if !started[e.Package] {
			t.Errorf("event before the start of %s: %s", e.Package, sc.Text())
		}
	}
	for k, r := range running {
		if r {
			t.Errorf("%s never ended", k)
		}
	}
	for p := range started {
		if !pkgDone[p] {
			t.Errorf("package %s never ended", p)
		}
	}
	return ends, outputs
}

// gotestsumVersion is the gotestsum the tests run (a Go module, installed
// from the module proxy into the temporary directory, once per machine).
const gotestsumVersion = "v1.13.0"

// gotestsumBin installs gotestsum, once per test process.
var gotestsumBin = func() func(t *testing.T) string {
	var bin, out string
	var err error
	done := false
	return func(t *testing.T) string {
		t.Helper()
		if !done {
			done = true
			dir := filepath.Join(os.TempDir(), "gosct-gotestsum-"+gotestsumVersion)
			cmd := exec.Command("go", "install", "gotest.tools/gotestsum@"+gotestsumVersion)
			cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-mod=mod")
			var b []byte
			b, err = cmd.CombinedOutput()
			out, bin = string(b), filepath.Join(dir, "gotestsum")
		}
		if err != nil {
			t.Fatalf("cannot install gotestsum (the module proxy must be reachable): %v\n%s", err, out)
		}
		return bin
	}
}()

// TestE2EGoJSONGotestsum: --json=go is go test's stream, and gotestsum
// (which CI test reporters and IDEs resemble) shows the bug as a failing
// test with its report, and fails.
func TestE2EGoJSONGotestsum(t *testing.T) {
	dir := fixtureDir(t)
	args := []string{"test", "--json=go", "--seed", "1", "--schedules", "50", "--trace-dir", t.TempDir(), "./buggy", "./correct"}
	r := runGosct(t, dir, args...)
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	ends, outputs := checkGoStream(t, r.stdout)
	checkTest2JSON(t, r.stdout)
	bugTest := ""
	for k, a := range ends {
		if strings.HasPrefix(k, "example.com/e2emod/buggy TestTransferBothWays/schedule_") {
			bugTest = k
			if a != "fail" {
				t.Errorf("%s ended with %s, want fail", k, a)
			}
		}
	}
	for k, want := range map[string]string{
		"example.com/e2emod/buggy TestTransferBothWays": "fail", "example.com/e2emod/buggy ": "fail",
		"example.com/e2emod/correct TestPipeline": "pass", "example.com/e2emod/correct ": "pass",
	} {
		if ends[k] != want {
			t.Errorf("%q ended with %q, want %q", k, ends[k], want)
		}
	}
	if bugTest == "" {
		t.Fatalf("no failing schedule subtest:\n%s", r.stdout)
	}
	if out := outputs[bugTest]; !strings.Contains(out, "    buggy/buggy.go:18: deadlock: ") || !strings.Contains(out, "replay: gosct replay ") {
		t.Errorf("the subtest's output is not the report:\n%s", out)
	}
	if r.stderr != "" {
		t.Errorf("stderr is not empty (go test's readers take it for errors):\n%s", r)
	}
	if !strings.Contains(outputs["example.com/e2emod/correct TestPipeline"], "; strategy portfolio, seed 1") {
		t.Errorf("a test's output does not give the strategy and the seed: %q", outputs["example.com/e2emod/correct TestPipeline"])
	}

	// gotestsum runs gosct as it runs go test -json.
	cmd := exec.Command(gotestsumBin(t), append([]string{"--format", "testname", "--raw-command", "--", gosctBinary(t)}, args...)...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 0 {
		t.Errorf("gotestsum: %v, want a failure exit status\n%s\n%s", err, o.String(), e.String())
	}
	out := o.String()
	for _, want := range []string{
		// gotestsum names packages relative to the module.
		"=== FAIL: buggy TestTransferBothWays/schedule_",
		"buggy/buggy.go:18: deadlock: ",
		"replay: gosct replay ",
		"PASS correct.TestPipeline",
		"FAIL buggy.TestTransferBothWays ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gotestsum's output lacks %q:\n%s\nstderr:\n%s", want, out, e.String())
		}
	}
	if !regexp.MustCompile(`DONE 5 tests, 2 failures in`).MatchString(out) {
		t.Errorf("gotestsum's count is not 5 tests (4 test functions and the schedule that failed), 2 failures, no error:\n%s", out)
	}
}

// annotation is one parsed GitHub workflow command.
type annotation struct {
	file  string
	line  int
	title string
	msg   string
}

func parseAnnotations(t *testing.T, s string) []annotation {
	t.Helper()
	re := regexp.MustCompile(`^::error (?:file=([^,]*),line=(\d+),)?title=([^:]*)::(.*)$`)
	unescape := strings.NewReplacer("%0A", "\n", "%0D", "\r", "%3A", ":", "%2C", ",", "%25", "%")
	var out []annotation
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "::") {
			continue
		}
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("malformed annotation %q", l)
			continue
		}
		n, _ := strconv.Atoi(m[2])
		out = append(out, annotation{file: unescape.Replace(m[1]), line: n, title: unescape.Replace(m[3]), msg: unescape.Replace(m[4])})
	}
	return out
}

// TestE2EAnnotationsCorpus: --annotations github writes one annotation
// per distinct bug of corpus programs (a bug of each kind), at a line of
// the program's files, with the replay command; gitlab's report has the
// same issues.
func TestE2EAnnotationsCorpus(t *testing.T) {
	root := testprogsRoot(t)
	progs := []string{"abba", "chanlock", "earlyreturn", "queueclose", "ctxcommit", "counterrace"}
	cq := filepath.Join(t.TempDir(), "cq.json")
	args := []string{"test", "--json", "--seed", "1", "--keep-going", "--races", "report", "--schedules", "200",
		"--trace-dir", filepath.Join(root, "gosct-traces-e2e"), "--annotations", "github", "--annotations", "gitlab=" + cq}
	t.Cleanup(func() { os.RemoveAll(filepath.Join(root, "gosct-traces-e2e")) })
	for _, p := range progs {
		args = append(args, "./gobugs/"+p)
	}
	t.Setenv("GITHUB_WORKSPACE", root)
	t.Setenv("CI_PROJECT_DIR", root)
	r := runGosct(t, root, args...)
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	distinct := map[string]map[string]any{}
	for _, b := range bugEvents(t, r) {
		distinct[b["package"].(string)+"\x00"+b["key"].(string)] = b
	}
	anns := parseAnnotations(t, r.stderr)
	if len(anns) != len(distinct) || len(anns) < len(progs) {
		t.Fatalf("%d annotations for %d distinct bugs of %d programs:\n%s", len(anns), len(distinct), len(progs), r.stderr)
	}
	kinds := map[string]bool{}
	for _, a := range anns {
		prog := strings.Split(a.file, "/")
		if len(prog) < 3 || prog[0] != "gobugs" || !contains(progs, prog[1]) {
			t.Errorf("annotation file %q is not a file of the programs", a.file)
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, a.file))
		if err != nil || a.line < 1 || a.line > strings.Count(string(data), "\n") {
			t.Errorf("annotation at %s:%d: not a line of the file (%v)", a.file, a.line, err)
		}
		k := strings.Fields(strings.TrimPrefix(a.title, "gosct: "))[0]
		kinds[k] = true
		if !strings.HasPrefix(a.title, "gosct: "+k+" in Test") || !strings.Contains(a.msg, "replay: gosct replay gosct-traces-e2e/") {
			t.Errorf("annotation %+v: want the kind and test in the title, the replay command (relative to the workspace) in the message", a)
		}
	}
	for _, k := range []string{"deadlock", "leak", "panic", "failure", "race"} {
		if !kinds[k] {
			t.Errorf("no annotation of a %s", k)
		}
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Location  struct {
			Path  string              `json:"path"`
			Lines struct{ Begin int } `json:"lines"`
		} `json:"location"`
	}
	data, err := os.ReadFile(cq)
	if err != nil || json.Unmarshal(data, &issues) != nil {
		t.Fatalf("gitlab report: %v\n%s", err, data)
	}
	if len(issues) != len(anns) {
		t.Errorf("%d gitlab issues, %d github annotations", len(issues), len(anns))
	}
	for i, is := range issues {
		if i < len(anns) && (is.Location.Path != anns[i].file || is.Location.Lines.Begin != anns[i].line) {
			t.Errorf("gitlab issue %d at %s:%d, annotation at %s:%d", i, is.Location.Path, is.Location.Lines.Begin, anns[i].file, anns[i].line)
		}
	}
}

// covJSON is the JSON coverage report.
type covJSON struct {
	Points, Reached int
	Packages        []struct {
		Package string
		Points  int
		Reached int
		Missed  []string `json:"reached_by_no_test"`
		Tests   []struct {
			Test      string
			Schedules int
			Recorded  bool
			Points    []struct {
				Pos, Op   string
				Schedules int
				Listed    bool
			} `json:"points_reached"`
			Pairs []struct {
				A, B   string
				AFirst int `json:"a_first"`
				BFirst int `json:"b_first"`
			}
		}
	}
}

func readCoverage(t *testing.T, path string) covJSON {
	t.Helper()
	var c covJSON
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &c) != nil {
		t.Fatalf("coverage report %s: %v\n%s", path, err, data)
	}
	return c
}

// TestE2ECoverage: the report covers every test; a straight-line test
// reaches every point of its file (the rewriter's list and the runtime's
// positions agree); a systematic search tries both orders of two stores;
// per-process mode adds up to the same coverage as one process.
func TestE2ECoverage(t *testing.T) {
	dir := toolsDir(t)
	file := filepath.Join(t.TempDir(), "cov.json")
	r := runGosct(t, dir, "test", "--strategy", "dfs", "--schedules", "300", "--seed", "1", "--coverage", file, "--trace-dir", t.TempDir(), "./cover")
	if r.code != exitOK {
		t.Fatalf("want exit 0:\n%s", r)
	}
	if !regexp.MustCompile(`gosct: coverage: \d+ of \d+ scheduling points reached \(\d+%\), \d+ pairs of conflicting points \(\d+ in both orders\); report in `).MatchString(r.stdout) {
		t.Errorf("no coverage summary line:\n%s", r)
	}
	c := readCoverage(t, file)
	if len(c.Packages) != 1 || len(c.Packages[0].Tests) != 3 {
		t.Fatalf("want one package of 3 tests: %+v", c)
	}
	p := c.Packages[0]
	for _, m := range p.Missed {
		if !strings.HasPrefix(m, "cover/cover_test.go:") {
			t.Errorf("%s reached by no test: Everything reaches every point of cover.go", m)
		}
	}
	if p.Points < 30 || p.Reached < p.Points-3 {
		t.Errorf("%d of %d points reached", p.Reached, p.Points)
	}
	var order map[string]int
	for _, tc := range p.Tests {
		if !tc.Recorded || tc.Schedules == 0 || len(tc.Points) == 0 {
			t.Errorf("%s: no coverage: %+v", tc.Test, tc)
		}
		for _, pt := range tc.Points {
			if pt.Schedules < 1 || pt.Schedules > tc.Schedules {
				t.Errorf("%s: %s %s reached in %d of %d schedules", tc.Test, pt.Pos, pt.Op, pt.Schedules, tc.Schedules)
			}
		}
		if tc.Test == "TestOrder" {
			order = map[string]int{}
			for _, pr := range tc.Pairs {
				order[pr.A+" / "+pr.B] = pr.AFirst*1000 + pr.BFirst
			}
			if len(tc.Pairs) != 1 || tc.Pairs[0].A != "cover/cover_test.go:37 atomic" || tc.Pairs[0].B != "cover/cover_test.go:40 atomic" ||
				tc.Pairs[0].AFirst == 0 || tc.Pairs[0].BFirst == 0 || tc.Pairs[0].AFirst+tc.Pairs[0].BFirst != tc.Schedules {
				t.Errorf("TestOrder: pairs %+v over %d schedules: want the two stores in both orders", tc.Pairs, tc.Schedules)
			}
		}
	}

	// One process per schedule: the same search, the same coverage.
	file2 := filepath.Join(t.TempDir(), "cov.json")
	r2 := runGosct(t, dir, "test", "--per-process", "--strategy", "dfs", "--seed", "1", "--run", "TestOrder", "--coverage", file2, "--trace-dir", t.TempDir(), "./cover")
	if r2.code != exitOK {
		t.Fatalf("per-process: want exit 0:\n%s", r2)
	}
	c2 := readCoverage(t, file2)
	if len(c2.Packages) != 1 || len(c2.Packages[0].Tests) != 1 {
		t.Fatalf("per-process: %+v", c2)
	}
	tc := c2.Packages[0].Tests[0]
	got := map[string]int{}
	for _, pr := range tc.Pairs {
		got[pr.A+" / "+pr.B] = pr.AFirst*1000 + pr.BFirst
	}
	if fmt.Sprint(got) != fmt.Sprint(order) {
		t.Errorf("per-process pairs %v, in one process %v", got, order)
	}
}
