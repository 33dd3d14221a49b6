package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestE2EShardsMergeToOneRun runs the same search as one process and as
// n = 1, 3 and 8 shard processes (gosct test --shard i/n --results DIR), and
// checks that gosct merge of the shards gives one process's result: the
// same number of schedules, the same bugs, exhausted iff the one process's
// search was, and the same exit status. Two searches: a dfs search that
// exhausts, and a random search of a fixed range of seeds whose schedules
// the shards must run exactly, bugs at the same schedule numbers.
func TestE2EShardsMergeToOneRun(t *testing.T) {
	dir := fixtureDir(t)
	searches := []struct {
		name string
		args []string
		code int
	}{
		{"dfs", []string{"--strategy", "dfs", "--schedules", "1000000", "--seed", "1", "--run", "TestTally"}, exitOK},
		{"random", []string{"--strategy", "random", "--schedules", "300", "--seed", "7", "--keep-going", "--run", "TestTwoBugs"}, exitBug},
	}
	for _, s := range searches {
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{1, 3, 8} {
				// Under a heavy load (other engineers' builds on the
				// machine) the runtime's watchdog may take the token
				// from a goroutine the OS did not run for 100 ms
				// (runtime/watchdog.go), which changes that execution's
				// part of the tree and the count of schedules by a few,
				// in one process and in shards alike. A mismatch is
				// therefore tried again, twice; a wrong merge fails
				// every time.
				var msg string
				for try := 0; try < 3; try++ {
					if msg = compareShards(t, dir, s.name, s.args, s.code, n); msg == "" {
						break
					}
					t.Logf("try %d: %s", try+1, msg)
				}
				if msg != "" {
					t.Fatal(msg)
				}
			}
		})
	}
}

// compareShards runs the search as one process and as n shards, and says
// how the merged result differs from the one process's ("" when equal).
// What is not a matter of counts fails t at once.
func compareShards(t *testing.T, dir, name string, args []string, code, n int) string {
	t.Helper()
	base := filepath.Join(t.TempDir(), "one")
	one := runGosct(t, dir, append(append([]string{"test", "--json", "--results", base}, args...), "./shards")...)
	if one.code != code {
		t.Fatalf("one process: exit %d, want %d:\n%s", one.code, code, one)
	}
	want := summarize(t, one.stdout)
	if name == "dfs" && (want.exhausted != 1 || want.schedules < 1000) {
		t.Fatalf("one process: %d schedules, exhausted %d: the test needs a search that exhausts", want.schedules, want.exhausted)
	}
	if name == "random" && len(want.bugs) < 2 {
		t.Fatalf("one process found %v: the test needs a search that finds both bugs", want.bugs)
	}
	res := filepath.Join(t.TempDir(), fmt.Sprintf("shards-%d", n))
	runShards(t, dir, n, res, args)
	m := runGosct(t, dir, "merge", "--json", res)
	if m.code != code {
		t.Fatalf("merge of %d shards: exit %d, want %d:\n%s", n, m.code, code, m)
	}
	got := summarize(t, m.stdout)
	if got.String() != want.String() {
		return fmt.Sprintf("%d shards merged:\n%s\none process:\n%s", n, got, want)
	}
	for _, tr := range got.traces {
		if _, err := os.Stat(tr); err != nil {
			t.Errorf("merged bug's trace: %v", err)
		}
	}
	per := shardSchedules(t, res, n)
	if name == "dfs" && n > 1 && per[0] == want.schedules {
		t.Errorf("shard 1 of %d ran the whole search: %v", n, per)
	}
	t.Logf("%s into %d: %v schedules", name, n, per)
	text := runGosct(t, dir, "merge", res)
	if text.code != code || !strings.Contains(text.stdout, fmt.Sprintf("gosct: %d schedules of 1 test", want.schedules)) {
		t.Fatalf("merge of %d shards, text:\n%s", n, text)
	}
	if name == "dfs" && !strings.Contains(text.stdout, "systematic search completed for 1 of 1 tests") {
		t.Fatalf("merge of %d shards does not say the search completed:\n%s", n, text)
	}
	return ""
}

// TestE2EShardsByTests: divided by tests, each shard explores whole tests,
// and the merge gives one process's tests, schedules and package line.
func TestE2EShardsByTests(t *testing.T) {
	dir := fixtureDir(t)
	args := []string{"--strategy", "dfs", "--schedules", "40", "--shard-by", "tests"}
	one := runGosct(t, dir, append([]string{"test", "--json", "--strategy", "dfs", "--schedules", "40"}, "./correct")...)
	want := summarize(t, one.stdout)
	res := filepath.Join(t.TempDir(), "res")
	for i := 1; i <= 2; i++ {
		r := runGosct(t, dir, append(append([]string{"test", "--shard", fmt.Sprintf("%d/2", i), "--results", res}, args...), "./correct")...)
		if r.code != exitOK {
			t.Fatalf("shard %d/2:\n%s", i, r)
		}
	}
	for i, tests := range []int{2, 1} { // TestCounter, TestPipeline, TestHandoff dealt round-robin
		b, _ := os.ReadFile(filepath.Join(res, shardName(i+1, 2), progressFile))
		var p shardProgress
		if json.Unmarshal(b, &p); p.Tests != tests || !p.Done {
			t.Errorf("shard %d/2 explored %d tests, want %d: %s", i+1, p.Tests, tests, b)
		}
	}
	m := runGosct(t, dir, "merge", "--json", res)
	if got := summarize(t, m.stdout); m.code != exitOK || got.String() != want.String() || got.tests != 3 {
		t.Fatalf("merged by tests:\n%s\none process:\n%s", m, want)
	}
	text := runGosct(t, dir, "merge", res)
	if !strings.Contains(text.stdout, "ok   example.com/e2emod/correct") {
		t.Fatalf("no package line:\n%s", text)
	}
}

// runShards runs shards 1..n of a search side by side, two at a time as
// the machine has two cores, each writing its results under res.
func runShards(t *testing.T, dir string, n int, res string, args []string) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	out := make([]e2eResult, n)
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- true
			defer func() { <-sem }()
			a := append([]string{"test", "--json", "--shard", fmt.Sprintf("%d/%d", i, n), "--results", res}, args...)
			out[i-1] = runGosct(t, dir, append(a, "./shards")...)
		}(i)
	}
	wg.Wait()
	for i, r := range out {
		if r.code != exitOK && r.code != exitBug {
			t.Fatalf("shard %d/%d:\n%s", i+1, n, r)
		}
		if !strings.Contains(r.stdout, fmt.Sprintf(`"shard":"%d/%d"`, i+1, n)) && n > 1 {
			t.Fatalf("shard %d/%d does not say which shard it is:\n%s", i+1, n, r)
		}
	}
}

// shardSchedules reads the schedules of each shard from its progress file.
func shardSchedules(t *testing.T, res string, n int) []int {
	var per []int
	for i := 1; i <= n; i++ {
		b, err := os.ReadFile(filepath.Join(res, shardName(i, n), progressFile))
		if err != nil {
			t.Fatal(err)
		}
		var p shardProgress
		if err := json.Unmarshal(b, &p); err != nil || !p.Done {
			t.Fatalf("progress of shard %d/%d: %s (%v)", i, n, b, err)
		}
		per = append(per, p.Schedules)
	}
	return per
}

// runSummary is what must be equal between one process and the merged
// shards.
type runSummary struct {
	schedules, tests, exhausted, notExplored, distinct int
	bugs                                               []string // test, kind, key and, for a range, schedule
	traces                                             []string
}

func (s runSummary) String() string {
	return fmt.Sprintf("%d schedules of %d tests, %d exhausted, %d not explored, %d distinct bugs:\n\t%s",
		s.schedules, s.tests, s.exhausted, s.notExplored, s.distinct, strings.Join(s.bugs, "\n\t"))
}

func summarize(t *testing.T, stdout string) runSummary {
	t.Helper()
	var s runSummary
	strategy := ""
	for _, l := range jsonLines(t, stdout) {
		switch l["event"] {
		case "summary":
			s.schedules, s.tests = int(l["schedules"].(float64)), int(l["tests"].(float64))
			s.exhausted, s.notExplored = int(l["exhausted_tests"].(float64)), int(l["not_explored_tests"].(float64))
			s.distinct = int(l["distinct_bugs"].(float64))
			strategy = l["strategy"].(string)
		case "bug":
			b := fmt.Sprintf("%v %v %v", l["test"], l["kind"], l["key"])
			if l["strategy"] == "random" {
				// A range of random schedules is run exactly: the
				// bug is found at the same schedule.
				b += fmt.Sprintf(" at schedule %v", l["schedule"])
			}
			s.bugs = append(s.bugs, b)
			s.traces = append(s.traces, l["trace"].(string))
		}
	}
	if strategy == "" {
		t.Fatalf("no summary in:\n%s", stdout)
	}
	sort.Strings(s.bugs)
	return s
}
