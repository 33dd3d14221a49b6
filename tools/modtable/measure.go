package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// result is one module's measurement, kept in OUT as KEY.json.
type result struct {
	Key, Module string
	Packages    []string
	Flags       []string
	Date        time.Time
	GoVersion   string
	CPUs        int
	// Rev is the tree modtable ran in (git describe).
	Rev string
	// LoadBefore and LoadAfter are /proc/loadavg's three averages around
	// the module's measurement.
	LoadBefore, LoadAfter string
	BoundS                float64
	// Error says why the module was not measured (download, build).
	Error string `json:",omitempty"`

	GoTest      timed
	GoTestTests int // top-level tests run (passed or failed) by go test -count=1
	// Count is go test -count=N: the top-level test runs over the
	// packages' test time (go test -json's elapsed per package, builds
	// excluded).
	Count         timed
	CountN        int
	CountRuns     int
	CountElapsedS float64

	Gosct timed
	Sum   summary
	// GosctTests counts the test functions gosct reported.
	GosctTests int
}

// timed is one bounded command's outcome.
type timed struct {
	WallS, CPUS float64
	Exit        int
	// Bounded: stopped at the bound.
	Bounded bool
}

// summary is what modtable reads of gosct's summary event.
type summary struct {
	Schedules     int     `json:"schedules"`
	Bugs          int     `json:"bugs"`
	ElapsedS      float64 `json:"elapsed_s"`
	ExploreS      float64 `json:"explore_s"`
	SchedulesPerS float64 `json:"schedules_per_s"`
	Tests         int     `json:"tests"`
	Proved        int     `json:"proved_tests"`
	NotExplored   int     `json:"not_explored_tests"`
	Saturated     int     `json:"saturated_tests"`
	Errors        int     `json:"errors"`
}

type measurer struct {
	gosct, out, rev string
	bound           time.Duration
	count           int
}

// measure fetches s and runs its three commands; a failure to fetch or
// build is the result's Error.
func (m *measurer) measure(s suite) *result {
	r := &result{Key: s.key(), Module: s.modver, Packages: s.pkgs, Flags: s.flags,
		Date: time.Now().UTC(), GoVersion: goVersion(), CPUs: runtime.NumCPU(), Rev: m.rev,
		BoundS: m.bound.Seconds(), CountN: m.count}
	fmt.Fprintf(os.Stderr, "== %s\n", s.modver)
	r.LoadBefore = loadavg()
	defer func() {
		r.LoadAfter = loadavg()
		if r.Error != "" {
			fmt.Fprintf(os.Stderr, "   %s\n", r.Error)
		}
	}()
	dir, err := m.fetch(s)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	gotest := func(count int) []string {
		return append(append([]string{"test", "-json", fmt.Sprintf("-count=%d", count)}, s.pkgs...), s.flags...)
	}
	var gosctFlags []string
	if len(s.flags) > 0 {
		gosctFlags = append([]string{"--"}, s.flags...)
	}
	traces := filepath.Join(m.out, r.Key+".traces")
	// Warm both builds: the table is a developer's second run.
	if _, out, err := m.run(dir, "go", append(append([]string{"test", "-count=1", "-run", "^$"}, s.pkgs...), s.flags...)...); err != nil {
		r.Error = fmt.Sprintf("go test does not build: %v: %s", err, firstLines(out, 3))
		return r
	}
	m.run(dir, m.gosct, append(append([]string{"test", "--json", "--schedules", "1", "--budget", "5s", "--trace-dir", traces}, s.pkgs...), gosctFlags...)...)

	var out []byte
	r.GoTest, out, _ = m.run(dir, "go", gotest(1)...)
	r.GoTestTests, _ = goTestRuns(out)
	os.WriteFile(filepath.Join(m.out, r.Key+".gotest.json"), out, 0o644)
	fmt.Fprintf(os.Stderr, "   go test: %.1f s wall, %.1f s CPU, exit %d, %d tests\n", r.GoTest.WallS, r.GoTest.CPUS, r.GoTest.Exit, r.GoTestTests)
	if m.count == 1 {
		// The same tests' rate is the run just timed.
		r.Count = r.GoTest
	} else {
		r.Count, out, _ = m.run(dir, "go", gotest(m.count)...)
	}
	r.CountRuns, r.CountElapsedS = goTestRuns(out)
	fmt.Fprintf(os.Stderr, "   go test -count=%d: %d runs in %.1f s of tests\n", m.count, r.CountRuns, r.CountElapsedS)
	r.Gosct, out, _ = m.run(dir, m.gosct, append(append([]string{"test", "--json", "--seed", "1", "--trace-dir", traces}, s.pkgs...), gosctFlags...)...)
	r.Sum, r.GosctTests = gosctSummary(out)
	// gosct's events, for what the table does not say (the tests not
	// explored and why, the bugs).
	os.WriteFile(filepath.Join(m.out, r.Key+".gosct.json"), out, 0o644)
	fmt.Fprintf(os.Stderr, "   gosct: %.1f s wall, %.1f s CPU, exit %d, bounded %v, %d schedules in %.1f s of exploration\n",
		r.Gosct.WallS, r.Gosct.CPUS, r.Gosct.Exit, r.Gosct.Bounded, r.Sum.Schedules, r.Sum.ExploreS)
	return r
}

// fetch copies the module out of the module cache (downloading it through
// the module proxy) into OUT, writable, as .ci/realsuites does.
func (m *measurer) fetch(s suite) (string, error) {
	b, err := exec.Command("go", "mod", "download", "-json", s.modver).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", s.modver, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(b, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("go mod download %s gave no directory", s.modver)
	}
	dst := filepath.Join(m.out, s.key())
	exec.Command("chmod", "-R", "u+w", dst).Run()
	if err := os.RemoveAll(dst); err != nil {
		return "", err
	}
	if out, err := exec.Command("cp", "-r", mod.Dir, dst).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copying %s: %v: %s", s.modver, err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dst).CombinedOutput(); err != nil {
		return "", fmt.Errorf("chmod %s: %v: %s", dst, err, out)
	}
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); os.IsNotExist(err) {
		// A pre-modules (+incompatible) release: the go.mod go mod
		// init would write.
		if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module "+s.module()+"\n\ngo 1.21\n"), 0o644); err != nil {
			return "", err
		}
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dst
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("dependencies of %s: %v: %s", s.modver, err, firstLines(out, 3))
	}
	return dst, nil
}

// run runs a command in dir, in a process group of its own, bounded by
// m.bound: at the bound the group is interrupted (gosct writes what it has
// and stops its test binaries), 30 s later killed. It returns the
// command's stdout, its wall clock and the CPU time of it and of the
// processes it waited for.
func (m *measurer) run(dir, name string, args ...string) (timed, []byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return timed{Exit: -1}, nil, err
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var t timed
	var err error
	select {
	case err = <-done:
	case <-time.After(m.bound):
		t.Bounded = true
		syscall.Kill(-pgid, syscall.SIGINT)
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-pgid, syscall.SIGKILL)
			err = <-done
		}
	}
	t.WallS = time.Since(start).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		t.CPUS = (ps.UserTime() + ps.SystemTime()).Seconds()
		t.Exit = ps.ExitCode()
	}
	if err != nil && stderr.Len() > 0 {
		err = fmt.Errorf("%w: %s", err, firstLines(stderr.Bytes(), 5))
	}
	return t, stdout.Bytes(), err
}

// goTestRuns reads go test -json's stream: the top-level tests that ran
// (passed or failed; not the skipped), and the packages' test time
// summed (go test's elapsed per package, builds excluded).
func goTestRuns(out []byte) (runs int, elapsedS float64) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e struct {
			Action, Test string
			Elapsed      float64
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || (e.Action != "pass" && e.Action != "fail") {
			continue
		}
		switch {
		case e.Test == "":
			elapsedS += e.Elapsed
		case !strings.Contains(e.Test, "/"):
			runs++
		}
	}
	return runs, elapsedS
}

// gosctSummary reads gosct test --json's stream: its summary, and the
// test functions it reported.
func gosctSummary(out []byte) (summary, int) {
	var s summary
	tests := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e struct {
			Event string `json:"event"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch e.Event {
		case "test":
			tests++
		case "summary":
			json.Unmarshal(sc.Bytes(), &s)
		}
	}
	return s, tests
}

func goVersion() string {
	b, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(b))
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(strings.TrimSpace(string(b)), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " / ")
}
