// Command ratecmp compares the exploration cost of gosct variants side by
// side (docs/performance.md): the race detector on and off, or this
// tree's gosct against another tree's. Each variant is a gosct binary and
// a race mode. ratecmp builds every package's instrumented test binary
// once per gosct binary (through `gosct test`, keeping the binary it
// links), then runs the binaries round after round, alternating the
// variants (the order turns each round, so that a machine's drift favours
// none), and prints per test the median over the rounds of the CPU time
// per schedule (the test process's user and system time over the
// schedules it explored) and of the schedules per second of the
// exploration's own clock, with each variant's ratio to the first.
//
// CPU time is what the detector costs, and holds on a machine that other
// jobs load, where wall-clock rates swing by 3x from run to run; run
// with GOMAXPROCS=1 (the test binaries inherit it) so that Go's
// scheduler does not spin threads that the hand-offs wake.
//
//	go build -o /tmp/gosct ./cmd/gosct && go build -o /tmp/ratecmp ./tools/ratecmp
//	cd testprogs && GOMAXPROCS=1 /tmp/ratecmp \
//	    off=/tmp/gosct,off on=/tmp/gosct,report -- ./perf/pingpong
//
// A VARIANT is name=gosct-binary,races (races: off or report).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// runPattern selects the tests run (-run).
var runPattern string

type variant struct {
	name, gosct, races string
}

type pkg struct {
	dir, path string
}

// stashEnv makes ratecmp a -toolexec wrapper that keeps a copy of the
// binary the linker writes at the path it names.
const stashEnv = "RATECMP_STASH"

func main() {
	if dst := os.Getenv(stashEnv); dst != "" && len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		os.Exit(toolexec(dst, os.Args[1:]))
	}
	rounds := flag.Int("rounds", 5, "rounds (each runs every variant once)")
	schedules := flag.Int("schedules", 20000, "schedules per test")
	strategy := flag.String("strategy", "random", "strategy")
	verbose := flag.Bool("v", false, "print every measurement")
	budget := flag.Duration("budget", 0, "wall-clock budget per test (0: none)")
	flag.StringVar(&runPattern, "run", ".", "which tests, as in go test -run")
	binDir := flag.String("bins", "", "keep the test binaries built in this directory, and reuse them (keyed by the gosct binary's content)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: ratecmp [flags] name=gosct-binary,races... -- package...")
		flag.PrintDefaults()
	}
	flag.Parse()
	var vs []variant
	var patterns []string
	args := flag.Args()
	for i, a := range args {
		if a == "--" {
			patterns = args[i+1:]
			break
		}
		name, spec, ok := strings.Cut(a, "=")
		bin, races, ok2 := strings.Cut(spec, ",")
		if !ok || !ok2 {
			flag.Usage()
			os.Exit(2)
		}
		vs = append(vs, variant{name: name, gosct: bin, races: races})
	}
	if len(vs) == 0 || len(patterns) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "ratecmp-")
	check(err)
	defer os.RemoveAll(tmp)

	pkgs := list(patterns)
	// bins[gosct binary][package] is the package's instrumented test
	// binary built by that gosct.
	bins := map[string]map[string]string{}
	for i, v := range vs {
		if bins[v.gosct] != nil {
			continue
		}
		bins[v.gosct] = map[string]string{}
		dir := tmp
		if *binDir != "" {
			sum, err := fileSum(v.gosct)
			check(err)
			dir = filepath.Join(*binDir, sum)
			check(os.MkdirAll(dir, 0o755))
		}
		for j, p := range pkgs {
			out := filepath.Join(dir, fmt.Sprintf("%d-%d.test", i, j))
			if *binDir != "" {
				out = filepath.Join(dir, strings.ReplaceAll(p.path, "/", "_")+".test")
				if _, err := os.Stat(out); err == nil {
					bins[v.gosct][p.path] = out
					continue
				}
			}
			if err := build(v.gosct, p, out); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %s: %v\n", v.name, p.path, err)
				continue
			}
			bins[v.gosct][p.path] = out
		}
	}

	// cpu and rate [test][variant] are the measurements of the rounds.
	cpu := map[string][][]float64{}
	rate := map[string][][]float64{}
	for round := 0; round < *rounds; round++ {
		for _, p := range pkgs {
			for k := range vs {
				vi := (k + round) % len(vs)
				v := vs[vi]
				bin := bins[v.gosct][p.path]
				if bin == "" {
					continue
				}
				evs, usage, err := runBinary(bin, p, tmp, v.races, *strategy, *schedules, *budget)
				if err != nil {
					fmt.Fprintf(os.Stderr, "round %d, %s, %s: %v\n", round+1, v.name, p.path, err)
					continue
				}
				// The process's CPU time is shared by its tests in
				// proportion to their schedules.
				total := 0
				for _, e := range evs {
					total += e.Schedules
				}
				for _, e := range evs {
					if e.Schedules == 0 || e.Elapsed <= 0 || e.Bugs > 0 {
						// A run that found a bug stops there and
						// re-runs its schedule in detail: not a rate.
						continue
					}
					key := p.path + " " + e.Test
					if cpu[key] == nil {
						cpu[key] = make([][]float64, len(vs))
						rate[key] = make([][]float64, len(vs))
					}
					us := usage.Seconds() * 1e6 / float64(total)
					r := float64(e.Schedules) / e.Elapsed
					cpu[key][vi] = append(cpu[key][vi], us)
					rate[key][vi] = append(rate[key][vi], r)
					if *verbose {
						fmt.Fprintf(os.Stderr, "round %d: %-6s %s: %.1f µs CPU/schedule, %.0f schedules/s\n", round+1, v.name, key, us, r)
					}
				}
			}
		}
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "%d rounds, %s, %d schedules per test\n\n", *rounds, *strategy, *schedules)
	table(w, "CPU µs per schedule", vs, cpu, false)
	fmt.Fprintln(w)
	table(w, "schedules/s (wall clock)", vs, rate, true)
}

// build builds p's instrumented test binary with gosct at out: gosct test
// runs one schedule of it, and the -toolexec wrapper keeps what the linker
// wrote.
func build(gosct string, p pkg, out string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(gosct, "test", "--json", "--schedules", "1", "--races", "off", p.path, "--", "-toolexec="+self)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), stashEnv+"="+out)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	if _, serr := os.Stat(out); serr != nil {
		return fmt.Errorf("no binary built (%v):\n%s", err, lastLines(buf.String(), 10))
	}
	return nil
}

// toolexec runs a tool of the build and keeps a copy of a linked binary.
func toolexec(dst string, args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if strings.TrimSuffix(filepath.Base(args[0]), ".exe") != "link" {
		return 0
	}
	for i, a := range args {
		if a == "-o" && i+1 < len(args) {
			if err := copyFile(args[i+1], dst); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
	return 0
}

// fileSum is a short hash of a file's content.
func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

type event struct {
	Event     string  `json:"event"`
	Test      string  `json:"test"`
	Schedules int     `json:"schedules"`
	Elapsed   float64 `json:"elapsed_s"`
	Bugs      int     `json:"bugs"`
}

// runBinary explores every test of p with bin and returns the test events
// and the process's CPU time.
func runBinary(bin string, p pkg, tmp, races, strategy string, schedules int, budget time.Duration) ([]event, time.Duration, error) {
	results := filepath.Join(tmp, "results.jsonl")
	os.Remove(results)
	cfg, _ := json.Marshal(map[string]any{
		"mode": "explore", "package": p.path, "strategy": strategy, "seed": 1, "schedules": schedules,
		"budget_ns": int64(budget), "races": races, "trace_dir": filepath.Join(tmp, "traces"), "results": results,
	})
	cmd := exec.Command(bin, "-test.run="+runPattern, "-test.count=1", "-test.timeout=30m")
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "GOSCT_CONFIG="+string(cfg))
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	if cmd.ProcessState == nil {
		return nil, 0, err
	}
	usage := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	b, rerr := os.ReadFile(results)
	if rerr != nil {
		return nil, 0, fmt.Errorf("%v %v\n%s", err, rerr, lastLines(buf.String(), 10))
	}
	var evs []event
	for _, l := range strings.Split(string(b), "\n") {
		var e event
		if json.Unmarshal([]byte(l), &e) == nil && e.Event == "test" {
			if e.Bugs > 0 {
				fmt.Fprintf(os.Stderr, "warning: %s %s (races %s): %d bugs\n", p.path, e.Test, races, e.Bugs)
			}
			evs = append(evs, e)
		}
	}
	return evs, usage, nil
}

// list resolves the package patterns to directories and import paths.
func list(patterns []string) []pkg {
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.Dir}} {{.ImportPath}}"}, patterns...)...).Output()
	check(err)
	var ps []pkg
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, path, _ := strings.Cut(l, " ")
		ps = append(ps, pkg{dir: dir, path: path})
	}
	return ps
}

// table prints the medians of ms per test and variant, and each variant's
// ratio to the first (as times: higher is slower).
func table(w io.Writer, what string, vs []variant, ms map[string][][]float64, inverse bool) {
	var tests []string
	for k := range ms {
		tests = append(tests, k)
	}
	sort.Strings(tests)
	fmt.Fprintf(w, "%-56s", what+", median")
	for _, v := range vs {
		fmt.Fprintf(w, " %9s", v.name)
	}
	for _, v := range vs[1:] {
		fmt.Fprintf(w, " %9s", v.name+"/"+vs[0].name)
	}
	fmt.Fprintln(w)
	ratios := make([][]float64, len(vs))
	for _, t := range tests {
		meds := make([]float64, len(vs))
		for i := range vs {
			meds[i] = median(ms[t][i])
		}
		fmt.Fprintf(w, "%-56s", shorten(t, 56))
		for _, m := range meds {
			fmt.Fprintf(w, " %9.1f", m)
		}
		for i := 1; i < len(vs); i++ {
			r := meds[i] / meds[0]
			if inverse {
				r = meds[0] / meds[i]
			}
			if !math.IsNaN(r) {
				ratios[i] = append(ratios[i], r)
			}
			fmt.Fprintf(w, " %8.2fx", r)
		}
		fmt.Fprintln(w)
	}
	for i := 1; i < len(vs); i++ {
		rs := ratios[i]
		if len(rs) == 0 {
			continue
		}
		sort.Float64s(rs)
		fmt.Fprintf(w, "%s/%s over %d tests: median %.2fx, geometric mean %.2fx, from %.2fx to %.2fx\n",
			vs[i].name, vs[0].name, len(rs), median(rs), geomean(rs), rs[0], rs[len(rs)-1])
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func geomean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs)))
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratecmp:", err)
		os.Exit(2)
	}
}
