package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gosct/gosct/tools/sincehist"
)

// `gosct test --since main` on branches of the history of
// tools/sincehist, each a pull request that adds one concurrency bug to
// a job server: the pairwise search finds the bug (janitor-quiet: a lock
// cycle over three goroutines, the janitor's fragment waiting for a
// goroutine that exists only late, which the happens-before extension
// reaches by holding a third goroutine back), its trace replays, the
// tests the change cannot reach are not run; a change of sequential code
// runs no test at all. (All the branches, against full runs, are measured
// by tools/sincemeasure: docs/results.md.)
func TestE2ESince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "jobs")
	if err := sincehist.Build(repo); err != nil {
		t.Fatal(err)
	}
	checkout := func(branch string) {
		t.Helper()
		if out, err := exec.Command("git", "-C", repo, "checkout", "-q", branch).CombinedOutput(); err != nil {
			t.Fatalf("checkout %s: %v\n%s", branch, err, out)
		}
	}
	byBranch := map[string]sincehist.Commit{}
	for _, c := range sincehist.Commits {
		byBranch[c.Branch] = c
	}
	for _, branch := range []string{"janitor-evict", "janitor-quiet", "report-quit", "report-race"} {
		c := byBranch[branch]
		checkout(branch)
		args := append([]string{"test", "--json", "--seed", "1", "--trace-dir", t.TempDir()}, c.Flags...)
		r := runGosct(t, repo, append(args, "--since", "main", "./...")...)
		if r.code != exitBug {
			t.Errorf("%s: want exit 1 for the %s:\n%s", branch, c.Bug, r)
			continue
		}
		bugs := bugEvents(t, r)
		if len(bugs) == 0 || bugs[0]["kind"] != c.Bug || bugs[0]["strategy"] != "pairwise" {
			t.Errorf("%s: want a %s found by pairwise, got %v", branch, c.Bug, bugs)
			continue
		}
		since := sinceMessage(t, r)
		if !strings.Contains(since, "TestCounter") || !strings.Contains(since, "1 package entirely") {
			t.Errorf("%s: the summary does not say the util package was not run: %q", branch, since)
		}
		trace, _ := bugs[0]["trace"].(string)
		if rr := runGosct(t, repo, "replay", trace); rr.code != exitBug {
			t.Errorf("%s: the trace does not replay:\n%s", branch, rr)
		}
	}

	checkout("square")
	r := runGosct(t, repo, "test", "--json", "--since", "main", "./...")
	if r.code != exitOK || len(bugEvents(t, r)) != 0 {
		t.Fatalf("square: want exit 0:\n%s", r)
	}
	if since := sinceMessage(t, r); !strings.Contains(since, "0 modified fragments") || !strings.Contains(since, "7 tests") || !strings.Contains(since, "nothing loaded") {
		t.Errorf("square: want no fragment, the 7 tests not run, and no package loaded: %q", since)
	}
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "test" {
			t.Errorf("square: a test ran: %v", l)
		}
	}

	// Deleting lines is checked on the base version: a deleted lock is
	// a change the syntax alone cannot clear.
	checkout("main")
	stats := filepath.Join(repo, "svc", "stats.go")
	b, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	unlocked := strings.Replace(string(b), "\ts.mu.Lock()\n\ts.lines++\n\ts.mu.Unlock()\n", "\ts.lines++\n", 1)
	if unlocked == string(b) {
		t.Fatal("stats.go: no lineLogged to edit")
	}
	if err := os.WriteFile(stats, []byte(unlocked), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runGosct(t, repo, "test", "--json", "--schedules", "1", "--since", "main", "./...")
	if since := sinceMessage(t, r); strings.Contains(since, "nothing loaded") || strings.Contains(since, "0 modified fragments") {
		t.Errorf("a deleted lock: want it analyzed: %q", since)
	}
	if out, err := exec.Command("git", "-C", repo, "checkout", "-q", "--", ".").CombinedOutput(); err != nil {
		t.Fatalf("restoring stats.go: %v\n%s", err, out)
	}

	r = runGosct(t, repo, "test", "--since", "main", "./...")
	if r.code != exitOK || !strings.Contains(r.stdout, "no Go file changed") {
		t.Errorf("no change: want exit 0 and a message:\n%s", r)
	}
	r = runGosct(t, repo, "test", "--since", "no-such-rev", "./...")
	if r.code != exitError || !strings.Contains(r.stderr, "--since no-such-rev: not a git revision") {
		t.Errorf("bad revision: want exit 2 and a message:\n%s", r)
	}
	r = runGosct(t, repo, "test", "--strategy", "pairwise", "./...")
	if r.code != exitError || !strings.Contains(r.stderr, "--since REV") {
		t.Errorf("pairwise without --since: want exit 2:\n%s", r)
	}
}

func sinceMessage(t *testing.T, r e2eResult) string {
	t.Helper()
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "since" {
			m, _ := l["message"].(string)
			return m
		}
	}
	t.Fatalf("no since event:\n%s", r)
	return ""
}
