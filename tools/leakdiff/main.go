// Command leakdiff compares gosct's leak verdicts with those of
// go.uber.org/goleak and of Go's own goroutine leak detector
// (GOEXPERIMENT=goroutineleakprofile, the "goroutineleak" profile of
// runtime/pprof) on a set of programs: the cases of testprogs/leakrule,
// each with the verdicts its leak.json expects, and the leak programs of
// testprogs/gobugs with their fixed twins. It prints a markdown table; the
// one in docs/limitations.md ("Leaks") comes from it.
//
//	go run ./tools/leakdiff                        # all three tools (the first run builds the standard library with the experiment: minutes)
//	go run ./tools/leakdiff --tools gosct --check  # gosct only; exit 1 if a verdict is not the expected one
//
// goleak and Go's detector run under plain go test (-count N, Go's own
// scheduler): each program is copied into a temporary module with a
// TestMain that calls goleak.VerifyTestMain, or that waits --grace after
// the tests and then reads the goroutineleak profile. A leak that needs a
// rare interleaving may not happen there: the table says what each tool
// reported, not what each rule would say of the same execution.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// program is one row of the comparison.
type program struct {
	dir      string // relative to the corpus root
	scenario string
	// expect is what leak.json expects of each tool ("gosct", "go",
	// "goleak"); for the gobugs programs only gosct's is known (its
	// program.json kind).
	expect map[string]bool
	got    map[string]string // tool -> "leak", "-", or an error
}

var tools = []string{"gosct", "goleak", "go"}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("leakdiff", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "testprogs", "the corpus directory")
	sel := fs.String("programs", "", "regexp selecting programs by directory")
	toolList := fs.String("tools", strings.Join(tools, ","), "tools to run: gosct, goleak, go (Go's leak detector)")
	schedules := fs.Int("schedules", 1000, "gosct: schedules per test")
	count := fs.Int("count", 10, "goleak and go: go test -count")
	grace := fs.Duration("grace", time.Second, "go: how long to wait after the tests before reading the goroutineleak profile")
	check := fs.Bool("check", false, "exit 1 if a verdict differs from the expected one")
	out := fs.String("out", "", "also write the markdown table to this file")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "leakdiff: %v\n", err)
		return 2
	}
	var re *regexp.Regexp
	if *sel != "" {
		var err error
		if re, err = regexp.Compile(*sel); err != nil {
			return fail(err)
		}
	}
	want := map[string]bool{}
	for _, t := range strings.Split(*toolList, ",") {
		t = strings.TrimSpace(t)
		if t != "gosct" && t != "goleak" && t != "go" {
			return fail(fmt.Errorf("unknown tool %q (gosct, goleak, go)", t))
		}
		want[t] = true
	}
	absRoot, err := filepath.Abs(*root)
	if err != nil {
		return fail(err)
	}
	ps, err := load(absRoot, re)
	if err != nil {
		return fail(err)
	}
	if len(ps) == 0 {
		return fail(fmt.Errorf("no program selected"))
	}
	tmp, err := os.MkdirTemp("", "gosct-leakdiff-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	if want["gosct"] {
		if err := runGosct(ctx, absRoot, tmp, ps, *schedules, stderr); err != nil {
			return fail(err)
		}
	}
	if want["goleak"] || want["go"] {
		mod, err := makeModule(ctx, absRoot, tmp, ps, *grace)
		if err != nil {
			return fail(err)
		}
		for _, p := range ps {
			if want["goleak"] {
				p.got["goleak"] = runGoleak(ctx, mod, p, *count)
			}
			if want["go"] {
				p.got["go"] = runGoDetector(ctx, mod, p, *count)
			}
			fmt.Fprintf(stderr, "%-40s %v\n", p.dir, p.got)
		}
	}
	var table bytes.Buffer
	writeTable(&table, ps, want)
	stdout.Write(table.Bytes())
	if *out != "" {
		if err := os.WriteFile(*out, table.Bytes(), 0o644); err != nil {
			return fail(err)
		}
	}
	if *check {
		bad := 0
		for _, p := range ps {
			for _, t := range tools {
				e, ok := p.expect[t]
				g, ran := p.got[t]
				if !ok || !ran || (g != "leak" && g != "-") {
					continue
				}
				if e != (g == "leak") {
					fmt.Fprintf(stdout, "CHECK FAILED: %s: %s says %s, expected %s\n", p.dir, t, g, verdict(e))
					bad++
				}
			}
		}
		if bad > 0 {
			return 1
		}
	}
	return 0
}

func verdict(leak bool) string {
	if leak {
		return "leak"
	}
	return "-"
}

// load finds the programs: every directory of root/leakrule with a
// leak.json, and every gobugs program of kind leak with its fixed twin.
func load(root string, re *regexp.Regexp) ([]*program, error) {
	var ps []*program
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		switch d.Name() {
		case "leak.json":
			var v struct {
				Scenario string          `json:"scenario"`
				Expect   map[string]bool `json:"expect"`
			}
			if err := readJSON(path, &v); err != nil {
				return err
			}
			ps = append(ps, &program{dir: rel, scenario: v.Scenario, expect: v.Expect})
		case "program.json":
			var v struct {
				Kind    string `json:"kind"`
				Pattern string `json:"pattern"`
				Buggy   string `json:"buggy"`
				FixedOf string `json:"fixed_of"`
			}
			if err := readJSON(path, &v); err != nil {
				return err
			}
			if !strings.HasPrefix(rel, "gobugs/") {
				return nil
			}
			if v.Kind == "leak" || v.Kind == "none" && isLeakProgram(root, v.Buggy) {
				ps = append(ps, &program{dir: rel, scenario: v.Pattern, expect: map[string]bool{"gosct": v.Kind == "leak"}})
			}
		}
		return nil
	})
	var out []*program
	for _, p := range ps {
		if re == nil || re.MatchString(p.dir) {
			p.got = map[string]string{}
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out, err
}

func isLeakProgram(root, dir string) bool {
	if dir == "" {
		return false
	}
	var v struct {
		Kind string `json:"kind"`
	}
	return readJSON(filepath.Join(root, dir, "program.json"), &v) == nil && v.Kind == "leak"
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// runGosct runs gosct once over every program and records, per package,
// whether it reported a leak.
func runGosct(ctx context.Context, root, tmp string, ps []*program, schedules int, stderr io.Writer) error {
	bin := filepath.Join(tmp, "gosct")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/gosct").CombinedOutput(); err != nil {
		return fmt.Errorf("building gosct (run from gosct's module root): %v\n%s", err, out)
	}
	args := []string{"test", "--json", "--seed", "1", "--schedules", strconv.Itoa(schedules), "--budget", "30s",
		"--trace-dir", filepath.Join(tmp, "traces")}
	for _, p := range ps {
		args = append(args, "./"+p.dir)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = root
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		return fmt.Errorf("gosct: %v", err)
	}
	leaks, tested := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Event, Package, Kind string
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		pkg := strings.TrimPrefix(e.Package, "github.com/gosct/gosct/testprogs/")
		switch e.Event {
		case "test":
			tested[pkg] = true
		case "bug":
			// A lock cycle is found while the test runs and reported as
			// a (partial) deadlock: its goroutines are leaked as well.
			if e.Kind == "leak" || e.Kind == "deadlock" {
				leaks[pkg] = true
			}
		}
	}
	for _, p := range ps {
		switch {
		case leaks[p.dir]:
			p.got["gosct"] = "leak"
		case tested[p.dir]:
			p.got["gosct"] = "-"
		default:
			p.got["gosct"] = "not run"
		}
	}
	return nil
}

// makeModule copies the programs into a module that requires goleak, each
// with its two generated TestMains behind build tags.
func makeModule(ctx context.Context, root, tmp string, ps []*program, grace time.Duration) (string, error) {
	mod := filepath.Join(tmp, "mod")
	for _, p := range ps {
		src, dst := filepath.Join(root, p.dir), filepath.Join(mod, p.dir)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return "", err
		}
		ents, err := os.ReadDir(src)
		if err != nil {
			return "", err
		}
		pkg := ""
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				return "", err
			}
			b = bytes.ReplaceAll(b, []byte(`"github.com/gosct/gosct/testprogs/`), []byte(`"leakdiff/`))
			if pkg == "" {
				pkg = packageName(b)
			}
			if bytes.Contains(b, []byte("func TestMain(")) {
				p.got["goleak"], p.got["go"] = "has TestMain", "has TestMain"
			}
			if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
				return "", err
			}
		}
		gl := "//go:build leakdiff_goleak\n\npackage " + pkg + "\n\nimport (\n\t\"testing\"\n\n\t\"go.uber.org/goleak\"\n)\n\nfunc TestMain(m *testing.M) { goleak.VerifyTestMain(m) }\n"
		gd := "//go:build leakdiff_go\n\npackage " + pkg + `

import (
	"bytes"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	code := m.Run()
	time.Sleep(` + strconv.FormatInt(int64(grace), 10) + `) // --grace
	p := pprof.Lookup("goroutineleak")
	if p == nil {
		fmt.Println("LEAKDIFF no goroutineleak profile: build with GOEXPERIMENT=goroutineleakprofile")
		os.Exit(3)
	}
	var b bytes.Buffer
	p.WriteTo(&b, 1)
	first, _, _ := strings.Cut(b.String(), "\n")
	fmt.Println("LEAKDIFF", first)
	fmt.Print(b.String())
	os.Exit(code)
}
`
		if err := os.WriteFile(filepath.Join(dst, "zz_leakdiff_goleak_test.go"), []byte(gl), 0o644); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dst, "zz_leakdiff_go_test.go"), []byte(gd), 0o644); err != nil {
			return "", err
		}
	}
	gomod := "module leakdiff\n\ngo 1.26\n\nrequire go.uber.org/goleak v1.3.0\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir = mod
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod tidy (goleak comes from the module proxy): %v\n%s", err, out)
	}
	return mod, nil
}

var pkgClause = regexp.MustCompile(`(?m)^package\s+(\w+)`)

func packageName(src []byte) string {
	m := pkgClause.FindSubmatch(src)
	if m == nil {
		return "main"
	}
	return strings.TrimSuffix(string(m[1]), "_test")
}

// runGoleak runs the program's tests under goleak.VerifyTestMain.
func runGoleak(ctx context.Context, mod string, p *program, count int) string {
	if g := p.got["goleak"]; g != "" {
		return g
	}
	out, _ := goTest(ctx, mod, p.dir, count, nil, "-tags", "leakdiff_goleak")
	switch {
	case strings.Contains(out, "found unexpected goroutines"):
		return "leak"
	case strings.Contains(out, "\nok") || strings.HasPrefix(out, "ok"):
		return "-"
	}
	return "error: " + lastLine(out)
}

// runGoDetector runs the program's tests, waits --grace, and reads the
// goroutineleak profile.
func runGoDetector(ctx context.Context, mod string, p *program, count int) string {
	if g := p.got["go"]; g != "" {
		return g
	}
	env := []string{"GOEXPERIMENT=goroutineleakprofile"}
	// -v: go test shows a passing package's output only in verbose mode.
	out, _ := goTest(ctx, mod, p.dir, count, env, "-v", "-tags", "leakdiff_go")
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "LEAKDIFF goroutineleak profile: total "); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
				if n > 0 {
					return "leak"
				}
				return "-"
			}
		}
		if strings.HasPrefix(l, "LEAKDIFF no") {
			return "error: no goroutineleak profile"
		}
	}
	return "error: " + lastLine(out)
}

func goTest(ctx context.Context, mod, dir string, count int, env []string, args ...string) (string, error) {
	a := append([]string{"test", "-count=" + strconv.Itoa(count), "-timeout", "300s"}, args...)
	a = append(a, "./"+dir)
	cmd := exec.CommandContext(ctx, "go", a...)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// writeTable renders the comparison.
func writeTable(w io.Writer, ps []*program, want map[string]bool) {
	head := []string{"program", "case"}
	names := map[string]string{"gosct": "gosct", "goleak": "goleak", "go": "Go's detector"}
	var cols []string
	for _, t := range tools {
		if want[t] {
			cols = append(cols, t)
			head = append(head, names[t])
		}
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, p := range ps {
		row := []string{"`" + p.dir + "`", p.scenario}
		for _, t := range cols {
			c := p.got[t]
			if e, ok := p.expect[t]; ok && (c == "leak" || c == "-") && e != (c == "leak") {
				c += " (expected " + verdict(e) + ")"
			}
			row = append(row, c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}
