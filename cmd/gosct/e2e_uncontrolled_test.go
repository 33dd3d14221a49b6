package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The uncontrolled-code fixture, testdata/uncmod: tests that drive a mock
// clock from a module gosct does not instrument (its Sleep blocks on a
// channel until another goroutine calls Add), as real suites do with
// benbjohnson/clock or clockwork. None may hang: each ends with a verdict.

func uncDir(t *testing.T) string {
	d, err := filepath.Abs(filepath.Join("testdata", "uncmod"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestE2EUncontrolledMockClock(t *testing.T) {
	// Without a bound of its own the stuck test would wait the runtime's
	// default (10 s); 2 s keeps the test short and shows the flag works.
	// --deps=false: the mock's module stays uncontrolled code (by default
	// gosct would instrument it, and the mock's channels would be its own).
	r := runGosct(t, uncDir(t), "test", "--json", "--seed", "1", "--schedules", "200", "--deps=false",
		"--uncontrolled-wait", "2s", "--trace-dir", t.TempDir(), "./mock")
	if r.code != exitBug { // a bug and an error: the bug decides
		t.Fatalf("want exit 1 (a bug, and an error):\n%s", r)
	}
	var tests, errs, bugs []map[string]any
	lines := jsonLines(t, r.stdout)
	if s := lines[len(lines)-1]; s["event"] != "summary" || s["errors"] != float64(1) || s["bugs"] != float64(1) {
		t.Errorf("summary %v", s)
	}
	for _, l := range lines {
		switch l["event"] {
		case "test":
			tests = append(tests, l)
		case "error":
			errs = append(errs, l)
		case "bug":
			bugs = append(bugs, l)
		}
	}
	byName := map[string]map[string]any{}
	for _, l := range tests {
		byName[l["test"].(string)] = l
	}

	// The correct test passes every schedule, however it interleaves with
	// the uninstrumented mock.
	if w := byName["TestWaitsForSleeper"]; w == nil || w["schedules"] != float64(200) || w["bugs"] != float64(0) {
		t.Errorf("TestWaitsForSleeper: want 200 schedules and no bug, got %v\n%s", w, r)
	}

	// Whichever goroutine locks first, TestAddUnderLock hangs under go
	// test. gosct calls it a deadlock that names the goroutine sleeping in
	// the mock, and where.
	if len(bugs) != 1 || bugs[0]["test"] != "TestAddUnderLock" || bugs[0]["kind"] != "deadlock" {
		t.Fatalf("want one deadlock in TestAddUnderLock, got %v\n%s", bugs, r)
	}
	msg, _ := bugs[0]["message"].(string)
	if !strings.Contains(msg, "in uncontrolled code at mockclock.go:") || !strings.Contains(msg, "[chan receive]") {
		t.Errorf("the deadlock does not say where the goroutine in uncontrolled code is: %q", msg)
	}

	// TestSleepForever sleeps on a clock nobody moves while a library
	// goroutine keeps the process busy: an error, not a pass, not a hang;
	// the exploration of that test stops, the package's other tests ran.
	if len(errs) != 1 || errs[0]["test"] != "TestSleepForever" {
		t.Fatalf("want one error, for TestSleepForever, got %v\n%s", errs, r)
	}
	emsg, _ := errs[0]["message"].(string)
	if !strings.HasPrefix(emsg, "could not complete: blocked in uncontrolled code") || !strings.Contains(emsg, "mockclock.go:") {
		t.Errorf("error message %q", emsg)
	}
	if s := byName["TestSleepForever"]; s == nil || s["stopped"] != "could not complete" || s["schedules"] != float64(1) {
		t.Errorf("TestSleepForever test event %v", s)
	}
}

// TestE2EDepsByDefault: without --deps=false the mock's module is
// instrumented, and the deadlock of TestAddUnderLock is one of the model,
// with no goroutine in uncontrolled code.
func TestE2EDepsByDefault(t *testing.T) {
	r := runGosct(t, uncDir(t), "test", "--json", "--seed", "1", "--schedules", "50",
		"--run", "TestAddUnderLock", "--trace-dir", t.TempDir(), "./mock")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) != 1 || bugs[0]["kind"] != "deadlock" {
		t.Fatalf("want one deadlock:\n%s", r)
	}
	if msg, _ := bugs[0]["message"].(string); strings.Contains(msg, "uncontrolled") || !strings.Contains(msg, "chan receive") {
		t.Errorf("the mock's channel should be a controlled one: %q", msg)
	}
}
