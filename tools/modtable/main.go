// Command modtable measures what a developer waits for on the real modules
// of .ci/realsuites (docs/performance.md, "Real modules: go test against a
// default run"): for each module, the wall-clock and CPU time of plain
// `go test` over its tests, of gosct's default run (`gosct test` with its
// default flags: the default portfolio, the run budget, the saturation
// rule), their ratio, and gosct's schedules per second against the
// iterations per second of the same tests under `go test -count=N`. It
// writes the table into docs/performance.md between the lines
// "<!-- module table -->" and "<!-- end module table -->", so that a rerun
// replaces it.
//
//	go build -o /tmp/gosct ./cmd/gosct && go build -o /tmp/modtable ./tools/modtable
//	/tmp/modtable -gosct /tmp/gosct                      # the CI set, then the table
//	/tmp/modtable -gosct /tmp/gosct golang.org/x/time    # only these modules
//	/tmp/modtable -table                                 # the table from the kept results
//	/tmp/modtable -gosct /tmp/gosct -also 'M@V' M        # a module outside the set (-table -also 'M@V': kept in the table)
//
// Run it from the repository's root. The modules, their versions, packages
// and go test flags are .ci/realsuites's (`.ci/realsuites --list`; -large
// adds its nightly set). Each is downloaded through the module proxy and
// copied out of the module cache into OUT, as .ci/realsuites does; both
// commands' builds are warmed first (the second run of a developer), then
// the measured commands run one after the other in the copy, each bounded
// by -bound: `go test -json -count=1`, `go test -json -count=N` when -count
// is more than 1 (with 1, the default, the rate is the first run's: on a
// suite of sleeps, such as golang.org/x/sync's, every more count is as
// long again), and `gosct test --json --seed 1` (the seed fixed so that a
// rerun explores the same schedules; every other flag the default). A
// command stopped at the bound is said so in the table, with no figure.
// The results stay in OUT, a file per module, so the table can be
// regenerated without a run and a set can be measured in several
// invocations (not two of them on one module at once: each makes the
// module's copy anew).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	gosct := flag.String("gosct", "gosct", "the gosct binary measured")
	out := flag.String("out", filepath.Join(os.TempDir(), "gosct-modtable"), "where the module copies and the results are kept")
	bound := flag.Duration("bound", 10*time.Minute, "the most each measured command may take, per module (go test and gosct each)")
	count := flag.Int("count", 1, "go test -count for the iterations per second (1: the rate of the go test run timed, no second run)")
	large := flag.Bool("large", false, "also the nightly-sized set of .ci/realsuites (--large)")
	tableOnly := flag.Bool("table", false, "only write the table from the results kept in -out")
	doc := flag.String("doc", "docs/performance.md", "the file whose table is replaced")
	also := flag.String("also", "", "modules outside .ci/realsuites's set, measured and tabled too: MODULE@VERSION lines of its form (packages, -- go test flags), separated by ';'")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: modtable [flags] [module...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	suites, err := readSuites(*large)
	if err != nil {
		fmt.Fprintf(os.Stderr, "modtable: %v\n", err)
		os.Exit(2)
	}
	suites = append(suites, parseSuites(strings.ReplaceAll(*also, ";", "\n"))...)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "modtable: %v\n", err)
		os.Exit(2)
	}
	if !*tableOnly {
		want := map[string]bool{}
		for _, m := range flag.Args() {
			want[m] = true
		}
		bin, err := filepath.Abs(*gosct)
		if err == nil {
			bin, err = exec.LookPath(bin)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "modtable: gosct binary %s: %v\n", *gosct, err)
			os.Exit(2)
		}
		m := &measurer{gosct: bin, out: *out, bound: *bound, count: *count, rev: revision()}
		for _, s := range suites {
			if len(want) > 0 && !want[s.module()] {
				continue
			}
			r := m.measure(s)
			if err := save(*out, r); err != nil {
				fmt.Fprintf(os.Stderr, "modtable: %v\n", err)
				os.Exit(2)
			}
		}
	}
	var results []*result
	for _, s := range suites {
		if r, err := load(*out, s); err == nil {
			results = append(results, r)
		}
	}
	if len(results) == 0 {
		fmt.Fprintf(os.Stderr, "modtable: no results in %s\n", *out)
		os.Exit(2)
	}
	tbl := render(results, *count)
	fmt.Print(tbl)
	if err := splice(*doc, tbl); err != nil {
		fmt.Fprintf(os.Stderr, "modtable: %v\n", err)
		os.Exit(2)
	}
}

// suite is a line of .ci/realsuites's set: module@version [packages...]
// [-- go test flags].
type suite struct {
	modver string
	pkgs   []string
	flags  []string
}

func (s suite) module() string { return s.modver[:strings.LastIndex(s.modver, "@")] }

// key names the module's directory and result file in OUT.
func (s suite) key() string {
	return strings.NewReplacer("/", "_", "@", "_", "+", "_").Replace(s.modver)
}

// readSuites asks .ci/realsuites for its set, so that the list of modules
// is kept in one place.
func readSuites(large bool) ([]suite, error) {
	args := []string{".ci/realsuites", "--list"}
	if large {
		args = append(args, "--large")
	}
	b, err := exec.Command("bash", args...).Output()
	if err != nil {
		return nil, fmt.Errorf(".ci/realsuites --list (run modtable from the repository's root): %w", err)
	}
	ss := parseSuites(string(b))
	if len(ss) == 0 {
		return nil, fmt.Errorf(".ci/realsuites --list printed no module")
	}
	return ss, nil
}

// parseSuites reads lines of .ci/realsuites's set.
func parseSuites(lines string) []suite {
	var ss []suite
	for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.Contains(f[0], "@") {
			continue
		}
		s := suite{modver: f[0]}
		rest := f[1:]
		for i, a := range rest {
			if a == "--" {
				s.flags = rest[i+1:]
				rest = rest[:i]
				break
			}
		}
		s.pkgs = rest
		if len(s.pkgs) == 0 {
			s.pkgs = []string{"./..."}
		}
		ss = append(ss, s)
	}
	return ss
}

// revision names the code gosct is built from, for the table's header:
// the last commit that changed anything but docs/, tools/ and .ci/, with
// "-dirty" when such files are changed and not committed.
func revision() string {
	paths := []string{"--", ".", ":(exclude)docs", ":(exclude)tools", ":(exclude).ci"}
	b, err := exec.Command("git", append([]string{"log", "-1", "--format=%h"}, paths...)...).Output()
	if err != nil || len(bytes.TrimSpace(b)) == 0 {
		return "unknown"
	}
	rev := string(bytes.TrimSpace(b))
	if st, err := exec.Command("git", append([]string{"status", "--porcelain"}, paths...)...).Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += "-dirty"
	}
	return rev
}

func save(out string, r *result) error {
	b, err := json.MarshalIndent(r, "", "\t")
	if err != nil {
		return err
	}
	p := filepath.Join(out, r.Key+".json")
	if err := os.WriteFile(p+".tmp", b, 0o644); err != nil {
		return err
	}
	return os.Rename(p+".tmp", p)
}

func load(out string, s suite) (*result, error) {
	b, err := os.ReadFile(filepath.Join(out, s.key()+".json"))
	if err != nil {
		return nil, err
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", s.modver, err)
	}
	return &r, nil
}
