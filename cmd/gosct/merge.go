package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
	"github.com/spf13/pflag"
)

const mergeUsage = `usage: gosct merge [flags] DIR...

Puts together the results of the shards of one search (gosct test --shard
I/N --results DIR, on N machines) into the report that one run of the whole
search gives: the bugs, each once, with their traces and replay commands,
the package lines, each test's schedules and whether its search was
exhausted, and the summary; --json gives the same objects as gosct test
--json. Each DIR is a shard's directory (DIR/shard-I-of-N) or holds them,
at any depth up to three (CI artifacts downloaded side by side).

Exit status as for gosct test: 1 a bug was found, 2 an error (a shard
missing or unfinished among them), 0 otherwise.

With --watch, it first follows the shards' progress files until every shard
is done (or has written nothing for --stale), then merges.

Flags:
`

type mergeOptions struct {
	json     bool
	verbose  bool
	watch    bool
	stale    time.Duration
	interval time.Duration
	dirs     []string
}

func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o mergeOptions
	fs := pflag.NewFlagSet("gosct merge", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.BoolVar(&o.json, "json", false, "one JSON object per line on stdout, as gosct test --json")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "every test's result, and every bug in full")
	fs.BoolVar(&o.watch, "watch", false, "show the shards' progress until they are all done, then merge")
	fs.DurationVar(&o.stale, "stale", 10*time.Minute, "--watch: a shard whose progress has not changed for this long is taken as dead")
	fs.DurationVar(&o.interval, "interval", time.Second, "--watch: how often the progress files are read")
	err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		return printUsage(stdout, mergeUsage, fs)
	}
	if err == nil && fs.NArg() == 0 {
		err = usagef("give the results directories of the shards (gosct test --results DIR)")
	}
	if err == nil && (o.stale <= 0 || o.interval <= 0) {
		err = usagef("--stale and --interval must be positive")
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct merge: %v\n", err)
		return exitError
	}
	o.dirs = fs.Args()
	if o.watch {
		watchShards(ctx, &o, stderr)
	}
	shards, err := loadShards(o.dirs)
	if err != nil {
		fmt.Fprintf(stderr, "gosct merge: %v\n", err)
		return exitError
	}
	return mergeShards(shards, &o, stdout, stderr)
}

// shardResult is one shard's results directory, read.
type shardResult struct {
	dir  string
	info runInfo
	runs []*shardRun
}

// shardRun is one run of a shard, as its events.json holds it.
type shardRun struct {
	tests    []jsonTest
	bugs     []jsonBug
	messages []jsonMessage
	packages []jsonPackage
	summary  *jsonSummary
	resumed  bool
}

// findShardDirs returns the shard directories in or under dirs: those
// holding a run.json, at most three levels down.
func findShardDirs(dirs []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s is not a directory", d)
		}
		root := filepath.Clean(d)
		err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() {
				return nil
			}
			if _, err := os.Stat(filepath.Join(p, runFile)); err == nil {
				if abs, _ := filepath.Abs(p); !seen[abs] {
					seen[abs] = true
					out = append(out, p)
				}
				return filepath.SkipDir
			}
			if rel, _ := filepath.Rel(root, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= 2 {
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// loadShards reads the shards' directories.
func loadShards(dirs []string) ([]*shardResult, error) {
	found, err := findShardDirs(dirs)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no results in %s (gosct test --results DIR writes them)", strings.Join(dirs, " "))
	}
	var out []*shardResult
	for _, d := range found {
		s, err := readShard(d)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func readShard(dir string) (*shardResult, error) {
	b, err := os.ReadFile(filepath.Join(dir, runFile))
	if err != nil {
		return nil, err
	}
	s := &shardResult{dir: dir}
	if err := json.Unmarshal(b, &s.info); err != nil {
		return nil, fmt.Errorf("%s: not a gosct results directory: %v", dir, err)
	}
	if s.info.Format != resultsFormat {
		return nil, fmt.Errorf("%s: results of format %d; this gosct reads format %d", dir, s.info.Format, resultsFormat)
	}
	if s.info.Shards < 1 || s.info.Shard < 1 || s.info.Shard > s.info.Shards {
		return nil, fmt.Errorf("%s: bad shard %d of %d", dir, s.info.Shard, s.info.Shards)
	}
	f, err := os.Open(filepath.Join(dir, eventsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	var run *shardRun
	for line := 1; sc.Scan(); line++ {
		raw := sc.Bytes()
		var head struct {
			Event   string `json:"event"`
			Resumed bool   `json:"resumed"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("%s line %d: %v (cut short by a crash?)", filepath.Join(dir, eventsFile), line, err)
		}
		if head.Event == "run" || run == nil {
			run = &shardRun{resumed: head.Resumed}
			s.runs = append(s.runs, run)
			if head.Event == "run" {
				continue
			}
		}
		var derr error
		switch head.Event {
		case "test":
			var t jsonTest
			derr = json.Unmarshal(raw, &t)
			run.tests = append(run.tests, t)
		case "bug":
			var b jsonBug
			derr = json.Unmarshal(raw, &b)
			b.Trace = s.resolveTrace(b.Trace)
			run.bugs = append(run.bugs, b)
		case "package":
			var p jsonPackage
			derr = json.Unmarshal(raw, &p)
			run.packages = append(run.packages, p)
		case "summary":
			var sum jsonSummary
			derr = json.Unmarshal(raw, &sum)
			run.summary = &sum
		default:
			var m jsonMessage
			derr = json.Unmarshal(raw, &m)
			m.Trace = s.resolveTrace(m.Trace)
			run.messages = append(run.messages, m)
		}
		if derr != nil {
			return nil, fmt.Errorf("%s line %d: %v", filepath.Join(dir, eventsFile), line, derr)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, eventsFile), err)
	}
	return s, nil
}

// resolveTrace finds a trace the shard wrote where it is now: traces
// written inside the shard's directory travel with it (a CI artifact, a
// copy from a volume), and the path recorded on the shard's machine is then
// no longer right.
func (s *shardResult) resolveTrace(p string) string {
	if p == "" {
		return ""
	}
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if rel, err := filepath.Rel(s.info.TraceDir, p); err == nil && !strings.HasPrefix(rel, "..") {
		here := filepath.Join(s.dir, "traces", rel)
		if _, err := os.Stat(here); err == nil {
			if abs, err := filepath.Abs(here); err == nil {
				return abs
			}
			return here
		}
	}
	return p
}

// mergedTest is one test function's exploration over the shards.
type mergedTest struct {
	pkg, test string
	t         jsonTest
	shards    int      // shards that reported it
	exhausted int      // of which exhausted
	statuses  []string // the shards' statuses
	keys      map[string]bool
	// notProof are the reasons of the parts whose end is no proof.
	notProof []string
}

// bugKey identifies a bug within its test, as the runtime deduplicates.
func bugKey(b jsonBug) string {
	if b.Key != "" {
		return b.Key
	}
	return b.Kind + "\x00" + firstLine(b.Message)
}

func bugEvent(b jsonBug) wire.Event {
	e := wire.Event{Event: "bug", Package: b.Package, Test: b.Test, Kind: b.Kind, Schedule: b.Schedule,
		Strategy: b.Strategy, Trace: b.Trace, Message: b.Message, Report: b.Report, Key: b.Key, Replayed: b.Replayed, Timing: b.Timing}
	if b.File != "" {
		// The location the shard's report starts with, relative to
		// the shard's working directory (the checkout's root, as here).
		e.Pos = fmt.Sprintf("%s:%d", b.File, b.Line)
	}
	return e
}

// event is the merged test's "test" event.
func (m *mergedTest) event(info runInfo) wire.Event {
	e := wire.Event{Event: "test", Package: m.pkg, Test: m.test, Strategy: info.Strategy,
		Schedules: m.t.Schedules, Resumed: m.t.Resumed, Probes: m.t.Probes, Bugs: len(m.keys), ElapsedS: m.t.ElapsedS,
		Message: m.t.Stopped}
	// By schedules, every shard explores every test: the search is
	// exhausted when every part of it is.
	parts := m.shards
	if info.By == "schedules" {
		parts = info.Shards
	}
	e.Exhausted = m.exhausted == parts && parts > 0
	e.Status = m.status(parts, e.Exhausted, isSystematic(info.Strategy))
	if e.Exhausted && len(m.notProof) > 0 {
		// The whole is a proof only if every part is.
		e.Unproved, e.NotProof = true, strings.Join(m.notProof, "; ")
		if !strings.Contains(e.Status, "; not a proof: ") {
			e.Status = strategies.NotAProof(e.Status, e.NotProof)
		}
	}
	return e
}

// status says how far the parts of a search went together, in the words of
// one search's status where the parts agree.
func (m *mergedTest) status(parts int, exhausted, systematic bool) string {
	if len(m.statuses) == 1 && parts == 1 {
		return m.statuses[0]
	}
	n := m.t.Schedules
	var st string
	switch {
	case exhausted:
		// pb and db: "exhausted within bound 3" if a part left
		// schedules out for the bound, else "none has more than 3
		// delays" if the parts say so.
		for _, s := range m.statuses {
			if i := strings.Index(s, ":"); strings.HasPrefix(s, "exhausted within bound ") && i > 0 {
				return m.diverged(s[:i] + fmt.Sprintf(": %d schedules", n))
			}
		}
		st = fmt.Sprintf("exhausted: %d schedules", n)
		suffix := ""
		if i := strings.Index(m.statuses[0], ", none has more than "); i >= 0 {
			suffix = m.statuses[0][i:]
			if j := strings.Index(suffix, ";"); j >= 0 {
				suffix = suffix[:j]
			}
		}
		for _, s := range m.statuses {
			if !strings.Contains(s, suffix) {
				suffix = ""
			}
		}
		st += suffix
	case systematic:
		st = fmt.Sprintf("%d schedules, not exhausted (%d of %d parts exhausted)", n, m.exhausted, parts)
	default:
		st = fmt.Sprintf("%d schedules in %d parts", n, parts)
	}
	return m.diverged(st)
}

// diverged adds to st that a part's search met replay divergences.
func (m *mergedTest) diverged(st string) string {
	for _, s := range m.statuses {
		if strings.Contains(s, "replay divergences") {
			return st + "; replay divergences: the program is not deterministic under gosct, the search may be incomplete"
		}
	}
	return st
}
