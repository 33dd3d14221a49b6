// Package sincehist builds the history that `gosct test --since` is
// measured on: a git repository whose main branch holds a small job
// server (testdata/base: a worker pool, a cache, a janitor, a log
// goroutine, stats, and a package of unrelated concurrent helpers), and
// one branch per commit that introduces one concurrency bug into it, as
// pull requests against main would. One more branch changes only
// sequential code.
//
// The end-to-end test of the command (cmd/gosct) and the measurement
// program (tools/sincemeasure, docs/results.md) both build it.
package sincehist

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed testdata/base
var base embed.FS

// A Commit is one change on its own branch from main.
type Commit struct {
	Branch string
	// Bug is the kind of bug gosct reports for it: "deadlock",
	// "failure", "panic", "leak"; "" for a change that adds none.
	Bug     string
	Message string
	Edits   []Edit
	// Flags are gosct test flags the bug needs (its oracle).
	Flags []string
}

// An Edit replaces the text Old, which must occur once, by New.
type Edit struct {
	File, Old, New string
}

// Commits are the branches Build makes, each one commit on main.
var Commits = []Commit{
	{Branch: "cache-hits", Bug: "failure", Message: "cache: count hits and misses from a snapshot of the counters", Edits: []Edit{{
		File: "svc/cache.go",
		Old: `	c.mu.Lock()
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()`,
		New: `	c.mu.RLock()
	hits, misses := c.hits, c.misses
	c.mu.RUnlock()
	c.mu.Lock()
	if ok {
		c.hits = hits + 1
	} else {
		c.misses = misses + 1
	}
	c.mu.Unlock()`}}},
	{Branch: "janitor-evict", Bug: "deadlock", Message: "janitor: evict and count under the cache's lock", Edits: []Edit{{
		File: "svc/server.go",
		Old: `			n := s.cache.evict()
			s.stats.addEvicted(n)`,
		New: `			s.cache.mu.Lock()
			n := len(s.cache.m)
			s.cache.m = map[string]int{}
			s.stats.addEvicted(n)
			s.cache.mu.Unlock()`}}},
	{Branch: "cache-empty", Bug: "deadlock", Message: "cache: return early when nothing is cached", Edits: []Edit{{
		File: "svc/cache.go",
		Old: `	v, ok := c.m[k]
	c.mu.RUnlock()`,
		New: `	v, ok := c.m[k]
	if !ok && len(c.m) == 0 {
		return 0, false // nothing cached yet
	}
	c.mu.RUnlock()`}}},
	{Branch: "close-log-first", Bug: "panic", Message: "server: close the log before waiting for the workers", Edits: []Edit{{
		File: "svc/server.go",
		Old: `	close(s.jobs)
	s.wg.Wait()`,
		New: `	close(s.jobs)
	s.log.Close()
	s.wg.Wait()`}, {
		File: "svc/server.go",
		Old: `	s.jan.Wait()
	s.log.Close()`,
		New: `	s.jan.Wait()`}}},
	{Branch: "close-unlocked", Bug: "panic", Message: "server: check for a second Close without the lock", Edits: []Edit{{
		File: "svc/server.go",
		Old: `	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true`,
		New: `	if s.isClosed() {
		return
	}
	s.mu.Lock()
	s.closed = true`}, {
		File: "svc/server.go",
		Old:  `// Report describes`,
		New: `func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Report describes`}}},
	{Branch: "report-quit", Bug: "leak", Message: "server: Report gives up when the server closes", Edits: []Edit{{
		File: "svc/server.go",
		Old:  `	ch := make(chan string, 1)`,
		New:  `	ch := make(chan string)`}, {
		File: "svc/server.go",
		Old: `	return <-ch
}`,
		New: `	select {
	case r := <-ch:
		return r
	case <-s.quit:
		return "closed"
	}
}`}}},
	{Branch: "stats-done", Bug: "failure", Message: "stats: compute the new count outside the critical section", Edits: []Edit{{
		File: "svc/stats.go",
		Old: `func (s *Stats) jobDone() {
	s.mu.Lock()
	s.done++
	s.mu.Unlock()
}`,
		New: `func (s *Stats) jobDone() {
	s.mu.Lock()
	d := s.done
	s.mu.Unlock()
	d++
	s.mu.Lock()
	s.done = d
	s.mu.Unlock()
}`}}},
	{Branch: "janitor-quiet", Bug: "deadlock", Message: "janitor: evict only once something was logged", Edits: []Edit{{
		File: "svc/server.go",
		Old: `			n := s.cache.evict()
			s.stats.addEvicted(n)`,
		New: `			s.cache.mu.Lock()
			if s.log.Count() > 0 {
				n := len(s.cache.m)
				s.cache.m = map[string]int{}
				s.cache.mu.Unlock()
				s.stats.addEvicted(n)
			} else {
				s.cache.mu.Unlock()
			}`}}},
	{Branch: "report-race", Bug: "race", Flags: []string{"--races", "report"}, Message: "server: Report reads the counts without the stats lock", Edits: []Edit{{
		File: "svc/server.go",
		Old: `		s.stats.mu.Lock()
		defer s.stats.mu.Unlock()
		ch <- fmt.Sprintf("done=%d evicted=%d cached=%d", s.stats.done, s.stats.evicted, s.cache.Len())`,
		New: `		done, evicted := s.stats.done, s.stats.evicted
		ch <- fmt.Sprintf("done=%d evicted=%d cached=%d", done, evicted, s.cache.Len())`}}},
	{Branch: "square", Bug: "", Message: "square: multiply in a variable", Edits: []Edit{{
		File: "svc/server.go",
		Old: `func square(n int) int {
	return n * n
}`,
		New: `func square(n int) int {
	r := n
	r *= n
	return r
}`}}},
}

// Build makes the repository in dir (created if needed): main with the
// base program, and one branch per Commit. It leaves main checked out.
func Build(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(base, "testdata/base", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := base.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, "testdata/base/"), ".txt")
		out := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		return err
	}
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if err := commitAll(dir, "job server: workers, cache, janitor, log, stats"); err != nil {
		return err
	}
	for _, c := range Commits {
		if err := git(dir, "checkout", "-q", "-b", c.Branch, "main"); err != nil {
			return err
		}
		for _, e := range c.Edits {
			if err := apply(dir, e); err != nil {
				return fmt.Errorf("%s: %v", c.Branch, err)
			}
		}
		if err := commitAll(dir, c.Message); err != nil {
			return err
		}
	}
	return git(dir, "checkout", "-q", "main")
}

func apply(dir string, e Edit) error {
	p := filepath.Join(dir, filepath.FromSlash(e.File))
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	s := string(b)
	if strings.Count(s, e.Old) != 1 {
		return fmt.Errorf("%s: the text to replace occurs %d times", e.File, strings.Count(s, e.Old))
	}
	return os.WriteFile(p, []byte(strings.Replace(s, e.Old, e.New, 1)), 0o644)
}

func commitAll(dir, msg string) error {
	if err := git(dir, "add", "-A"); err != nil {
		return err
	}
	return git(dir, "-c", "user.name=gosct", "-c", "user.email=gosct@example.com", "commit", "-q", "-m", msg)
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
