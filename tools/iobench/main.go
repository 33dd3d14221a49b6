// Command iobench measures gosct on tests that spend their time in
// uncontrolled code (docs/performance.md, "Uncontrolled code"): for each
// test of testprogs/perf/io it runs, side by side in each round, the
// uncontrolled test binary with -test.count=N (iterations/s over the whole
// process) and `gosct test` with --schedules M (schedules/s of the
// exploration, as the binary times it: the build is excluded). It prints a
// Markdown table of medians, the ratio of the medians, and how many
// schedules depended on uncontrolled code and how many of those replayed
// (--check-replay, a separate run so that it does not slow the timed one).
//
//	go run ./tools/iobench                   # 3 rounds
//	go run ./tools/iobench -rounds 5 -count 1000 -schedules 1000
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

var (
	rounds    = flag.Int("rounds", 3, "rounds, each running every test both ways")
	count     = flag.Int("count", 500, "iterations of each test uncontrolled (-test.count)")
	schedules = flag.Int("schedules", 500, "schedules of each test under gosct")
	only      = flag.String("run", "", "only the tests matching this regexp (as go test -run)")
)

var tests = []string{"TestHTTPHandler", "TestTempFiles", "TestSubprocess", "TestPipe"}

func main() {
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	tmp, err := os.MkdirTemp("", "iobench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	gosct := filepath.Join(tmp, "gosct")
	plain := filepath.Join(tmp, "io.test")
	progs := filepath.Join(root, "testprogs")
	must(run(root, "go", "build", "-o", gosct, "./cmd/gosct"))
	must(run(progs, "go", "test", "-c", "-o", plain, "./perf/io"))
	// A first gosct run builds the instrumented binary: later ones are warm.
	must(run(progs, gosct, "test", "--schedules", "1", "--run", "XXX", "./perf/io"))

	type result struct {
		plain, gosct []float64
		unc, rep     int
		sched        int
	}
	res := map[string]*result{}
	var names []string
	for _, t := range tests {
		if *only != "" && !strings.Contains(t, strings.Trim(*only, "^$")) {
			continue
		}
		names = append(names, t)
		res[t] = &result{}
	}
	for r := 0; r < *rounds; r++ {
		for _, t := range names {
			start := time.Now()
			must(run(progs, plain, "-test.run", "^"+t+"$", "-test.count", fmt.Sprint(*count)))
			res[t].plain = append(res[t].plain, float64(*count)/time.Since(start).Seconds())
			ev, err := gosctTest(progs, gosct, t, *schedules, false)
			if err != nil {
				fail(err)
			}
			res[t].gosct = append(res[t].gosct, ev.Schedules/ev.ElapsedS)
			fmt.Fprintf(os.Stderr, "round %d %-16s uncontrolled %8.0f/s  gosct %8.0f/s\n", r+1, t, res[t].plain[r], res[t].gosct[r])
		}
	}
	for _, t := range names {
		ev, err := gosctTest(progs, gosct, t, *schedules, true)
		if err != nil {
			fail(err)
		}
		res[t].unc, res[t].rep, res[t].sched = ev.Uncontrolled, ev.UncontrolledReplayed, int(ev.Schedules)
	}
	fmt.Printf("`go run ./tools/iobench -rounds %d -count %d -schedules %d` (%s, %d CPUs, %s)\n\n",
		*rounds, *count, *schedules, runtime.Version(), runtime.NumCPU(), time.Now().Format("2006-01-02"))
	fmt.Println("| test | uncontrolled iterations/s | gosct schedules/s | ratio | schedules that depended on uncontrolled code | of them replayed |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, t := range names {
		p, g := median(res[t].plain), median(res[t].gosct)
		fmt.Printf("| %s | %.0f %s | %.0f %s | %.2f | %d of %d | %d |\n", t, p, span(res[t].plain), g, span(res[t].gosct), g/p, res[t].unc, res[t].sched, res[t].rep)
	}
}

// event is the part of gosct's "test" event iobench reads.
type event struct {
	Event                string  `json:"event"`
	Schedules            float64 `json:"schedules"`
	ElapsedS             float64 `json:"elapsed_s"`
	Bugs                 int     `json:"bugs"`
	Uncontrolled         int     `json:"uncontrolled"`
	UncontrolledReplayed int     `json:"uncontrolled_replayed"`
}

func gosctTest(dir, gosct, test string, n int, check bool) (*event, error) {
	args := []string{"test", "--json", "--strategy", "random", "--seed", "1", "--schedules", fmt.Sprint(n), "--budget", "0", "--run", "^" + test + "$"}
	if check {
		args = append(args, "--check-replay")
	}
	cmd := exec.Command(gosct, append(args, "./perf/io")...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("gosct on %s: %v\n%s", test, err, out.String())
	}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Event == "test" {
			if ev.Bugs > 0 {
				return nil, fmt.Errorf("gosct found a bug in %s, a correct test:\n%s", test, out.String())
			}
			return &ev, nil
		}
	}
	return nil, fmt.Errorf("no test event for %s:\n%s", test, out.String())
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func span(xs []float64) string {
	if len(xs) < 2 {
		return ""
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return fmt.Sprintf("[%.0f–%.0f]", s[0], s[len(s)-1])
}

func run(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return nil
}

func repoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("run iobench from gosct's module: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func must(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "iobench:", err)
	os.Exit(1)
}
