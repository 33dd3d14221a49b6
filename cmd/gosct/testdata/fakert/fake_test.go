// Package fakert stands in for an instrumented package in the command's unit
// tests: its TestMain plays the gosct runtime, reading GOSCT_CONFIG and
// appending the events that the scenario in FAKE_SCENARIO calls for, so the
// command's handling of results, exit statuses and output can be tested
// without the rewriter and the runtime.
package fakert

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

type config struct {
	Mode      string `json:"mode"`
	Package   string `json:"package"`
	Strategy  string `json:"strategy"`
	Seed      int64  `json:"seed"`
	Schedules int    `json:"schedules"`
	TraceDir  string `json:"trace_dir"`
	Trace     string `json:"trace"`
	Continue  bool   `json:"continue"`
	Results   string `json:"results"`
	// The run budget, as the command passed it.
	RunBudgetNS int64 `json:"run_budget_ns,omitempty"`
	RunTests    int   `json:"run_tests,omitempty"`
	// The saturation rule, as the command passed it.
	Saturate bool `json:"saturate,omitempty"`
}

// tests are the package's test functions in the order the binary runs
// them: FAKE_TESTS, comma-separated, or TestA and TestB.
var tests = []string{"TestA", "TestB"}

func TestMain(m *testing.M) {
	flag.Parse()
	if s := os.Getenv("FAKE_TESTS"); s != "" {
		tests = strings.Split(s, ",")
	}
	if list := flag.Lookup("test.list").Value.String(); list != "" {
		// As testing's -test.list: the names matching, in run order.
		re := regexp.MustCompile(list)
		for _, name := range tests {
			if re.MatchString(name) {
				fmt.Println(name)
			}
		}
		os.Exit(0)
	}
	var c config
	if err := json.Unmarshal([]byte(os.Getenv("GOSCT_CONFIG")), &c); err != nil {
		fmt.Println("no config:", err)
		os.Exit(3)
	}
	// Record what the command passed, for the tests to check.
	if rec := os.Getenv("FAKE_RECORD"); rec != "" {
		wd, _ := os.Getwd()
		b, _ := json.Marshal(map[string]any{"config": c, "args": os.Args[1:], "dir": wd})
		f, _ := os.OpenFile(rec, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		f.Write(append(b, '\n'))
		f.Close()
	}
	run := flag.Lookup("test.run").Value.String()
	top := regexp.MustCompile(strings.SplitN(run, "/", 2)[0])
	var skip *regexp.Regexp
	if s := flag.Lookup("test.skip").Value.String(); s != "" && !strings.Contains(s, "/") {
		skip = regexp.MustCompile(s)
	}
	out, err := os.OpenFile(c.Results, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	emit := func(ev map[string]any) {
		b, _ := json.Marshal(ev)
		out.Write(append(b, '\n'))
	}
	scenario := os.Getenv("FAKE_SCENARIO")
	// The tests the "crash" scenario dies in, whenever they run.
	crash := map[string]bool{"TestB": true}
	if s := os.Getenv("FAKE_CRASH"); s != "" {
		crash = map[string]bool{}
		for _, name := range strings.Split(s, ",") {
			crash[name] = true
		}
	}
	code := 0
	for _, name := range tests {
		if !top.MatchString(name) || skip != nil && skip.MatchString(name) {
			continue
		}
		switch {
		case scenario == "crash" && crash[name]:
			out.WriteString(`{"event":"progress","te`)
			fmt.Println("panic: runtime error: boom in " + name)
			os.Exit(2)
		case scenario == "bug" && name == "TestB", scenario == "replay-bug":
			os.MkdirAll(c.TraceDir, 0o755)
			trace := filepath.Join(c.TraceDir, name+".json")
			os.WriteFile(trace, []byte(`{"format":1,"test":"`+name+`"}`), 0o644)
			emit(map[string]any{"event": "bug", "package": c.Package, "test": name, "kind": "deadlock",
				"schedule": 7, "strategy": "pct", "trace": trace, "message": "all goroutines are asleep",
				"report": "goroutine 1 blocked on chan send", "key": "deadlock q.go:3", "replayed": c.Mode == "replay"})
			code = 1
		case scenario == "diverged":
			emit(map[string]any{"event": "diverged", "test": name, "message": "diverged at step 3: expected goroutine 2 at chan send q.go:4, got goroutine 1 at mutex lock q.go:9"})
		case scenario == "fail-outside" && name == "TestA":
			fmt.Println("--- FAIL: TestUninstrumented")
			code = 1
		}
		if scenario == "fail-stopped" && name == "TestB" {
			// A schedule stopped in its middle (uncontrolled code that
			// never returned) failed its subtest.
			fmt.Println("--- FAIL: TestB/schedule-1")
			emit(map[string]any{"event": "test", "test": name, "schedules": 1, "elapsed_s": 0.5, "message": "could not complete: blocked in uncontrolled code"})
			code = 1
			continue
		}
		if scenario == "too-long" && name == "TestB" {
			emit(map[string]any{"event": "warning", "test": name, "message": "an execution exceeded 100 scheduling steps"})
			emit(map[string]any{"event": "test", "test": name, "schedules": 1, "elapsed_s": 0.5, "message": "too long"})
			continue
		}
		if scenario == "saturated" {
			// The saturation rule stopped the test before its limit.
			emit(map[string]any{"event": "test", "test": name, "schedules": 700, "elapsed_s": 0.5, "saturated": 400,
				"status": "700 schedules; random: 300; db: 100; pct d=3: 300"})
			continue
		}
		if scenario == "unproved" {
			emit(map[string]any{"event": "test", "test": name, "schedules": c.Schedules, "elapsed_s": 0.5, "exhausted": true,
				"unproved": true, "not_proof": "it read the clock", "status": "searched to the end: 25 schedules; not a proof: it read the clock"})
			continue
		}
		emit(map[string]any{"event": "test", "test": name, "schedules": c.Schedules, "elapsed_s": 0.5,
			"exhausted": c.Strategy == "dfs", "status": "done"})
	}
	out.Close()
	fmt.Println("fake runtime ran", scenario)
	os.Exit(code)
}
