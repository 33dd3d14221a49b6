// Command satmeasure measures the saturation rule of gosct's default run
// (docs/strategies.md, "A run's budget"): it runs `gosct test` over the
// same packages with the rule off (--saturate=false) and on (the
// default), every other flag the default, the seed fixed so that both
// runs draw the same schedules, and prints side by side the bugs each
// found (by test and kind), the bugs the rule lost, the schedules and the
// time each took (wall clock, and the CPU time of gosct and of the
// processes it ran, which another job's load does not change), and the
// tests the rule stopped.
//
//	go build -o /tmp/gosct ./cmd/gosct && go build -o /tmp/satmeasure ./tools/satmeasure
//	nice -n 19 /tmp/satmeasure --gosct /tmp/gosct -- ./testprogs/gobugs/...
//
// Run it from the directory gosct test would run in (the repository's
// root for the corpus). Exit status 1 when the rule lost a bug.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// event is what satmeasure reads of gosct test --json's objects.
type event struct {
	Event     string  `json:"event"`
	Package   string  `json:"package"`
	Test      string  `json:"test"`
	Kind      string  `json:"kind"`
	Schedule  int     `json:"schedule"`
	Result    string  `json:"result"`
	Schedules int     `json:"schedules"`
	ElapsedS  float64 `json:"elapsed_s"`
	ExploreS  float64 `json:"explore_s"`
	Saturated int     `json:"saturated_after"`
}

// run is one gosct test run's outcome.
type run struct {
	name string
	// wall is the run's wall clock, cpu the CPU time (user and system)
	// of gosct and every process it waited for (builds, test binaries):
	// what the run costs, whatever else loads the machine.
	wall, cpu time.Duration
	exploreS  float64
	schedules int
	// bugs maps "package test kind" to the schedule of its first bug.
	bugs map[string]int
	// tests maps "package test" to its test object.
	tests map[string]event
}

func main() {
	gosct := flag.String("gosct", "gosct", "the gosct binary")
	seed := flag.Int64("seed", 1, "the seed of both runs")
	order := flag.String("order", "off,on", "which run goes first: off,on or on,off")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: satmeasure [flags] -- package...")
		flag.PrintDefaults()
	}
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 || (*order != "off,on" && *order != "on,off") {
		flag.Usage()
		os.Exit(2)
	}
	runs := map[string]*run{}
	for _, v := range strings.Split(*order, ",") {
		args := []string{"test", "--json", "--seed", fmt.Sprint(*seed), "--saturate=" + fmt.Sprint(v == "on")}
		r, err := measure(v, *gosct, append(args, patterns...))
		if err != nil {
			fmt.Fprintf(os.Stderr, "satmeasure: %s: %v\n", v, err)
			os.Exit(2)
		}
		runs[v] = r
	}
	off, on := runs["off"], runs["on"]
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "`satmeasure --seed %d -- %s` (gosct test defaults, seed %d; rule off: --saturate=false)\n\n", *seed, strings.Join(patterns, " "), *seed)
	fmt.Fprintln(w, "| | rule off | rule on | on/off |")
	fmt.Fprintln(w, "|---|---|---|---|")
	fmt.Fprintf(w, "| tests | %d | %d | |\n", len(off.tests), len(on.tests))
	fmt.Fprintf(w, "| bugs (test, kind) | %d | %d | |\n", len(off.bugs), len(on.bugs))
	fmt.Fprintf(w, "| schedules | %d | %d | %.2f |\n", off.schedules, on.schedules, ratio(float64(on.schedules), float64(off.schedules)))
	fmt.Fprintf(w, "| exploration | %.0f s | %.0f s | %.2f |\n", off.exploreS, on.exploreS, ratio(on.exploreS, off.exploreS))
	fmt.Fprintf(w, "| wall (builds included) | %.0f s | %.0f s | %.2f |\n", off.wall.Seconds(), on.wall.Seconds(), ratio(on.wall.Seconds(), off.wall.Seconds()))
	fmt.Fprintf(w, "| CPU time (builds included) | %.0f s | %.0f s | %.2f |\n", off.cpu.Seconds(), on.cpu.Seconds(), ratio(on.cpu.Seconds(), off.cpu.Seconds()))
	fmt.Fprintf(w, "| tests stopped saturated | %d | %d | |\n", saturated(off), saturated(on))

	var lost, gained []string
	for k := range off.bugs {
		if _, ok := on.bugs[k]; !ok {
			lost = append(lost, k)
		}
	}
	for k := range on.bugs {
		if _, ok := off.bugs[k]; !ok {
			gained = append(gained, k)
		}
	}
	sort.Strings(lost)
	sort.Strings(gained)
	fmt.Fprintf(w, "\nBugs lost with the rule: %d%s\n", len(lost), list(lost, off.bugs))
	fmt.Fprintf(w, "Bugs found with the rule only: %d%s\n", len(gained), list(gained, on.bugs))
	late := 0
	for _, s := range on.bugs {
		late = max(late, s)
	}
	fmt.Fprintf(w, "Latest first bug with the rule: schedule %d\n", late)

	var keys []string
	for k, t := range on.tests {
		if t.Saturated > 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		fmt.Fprintln(w, "\nTests the rule stopped:\n\n| test | schedules off | schedules on | saturated after | time off | time on |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|")
		for _, k := range keys {
			t, o := on.tests[k], off.tests[k]
			fmt.Fprintf(w, "| %s | %d | %d | %d | %.1f s | %.1f s |\n", k, o.Schedules, t.Schedules, t.Saturated, o.ElapsedS, t.ElapsedS)
		}
	}
	if len(lost) > 0 {
		w.Flush()
		os.Exit(1)
	}
}

// measure runs gosct with args and reads its --json output.
func measure(name, gosct string, args []string) (*run, error) {
	cmd := exec.Command(gosct, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	r := &run{name: name, wall: time.Since(start), bugs: map[string]int{}, tests: map[string]event{}}
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
	}
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		return nil, fmt.Errorf("%s %s: %v\n%s", gosct, strings.Join(args, " "), err, errOut.String())
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Event {
		case "bug":
			k := key + " " + e.Kind
			if s, ok := r.bugs[k]; !ok || e.Schedule < s {
				r.bugs[k] = e.Schedule
			}
		case "test":
			r.tests[key] = e
		case "summary":
			r.exploreS, r.schedules = e.ExploreS, e.Schedules
		}
	}
	return r, sc.Err()
}

func saturated(r *run) int {
	n := 0
	for _, t := range r.tests {
		if t.Saturated > 0 {
			n++
		}
	}
	return n
}

func list(keys []string, at map[string]int) string {
	if len(keys) == 0 {
		return ""
	}
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n- %s (schedule %d)", k, at[k])
	}
	return b.String()
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
