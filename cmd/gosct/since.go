package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/static"
	"github.com/gosct/gosct/strategies"
)

// `gosct test --since REV`: pairwise incremental checking (Parízek and Kliber). The
// changed lines come from git; package static turns them into modified
// fragments, the go statements whose goroutines reach them and the tests
// that can reach them; the pairwise strategy explores, test by test, the
// interleavings of each goroutine running a fragment with each other
// goroutine; the tests the change cannot reach are not run.

// sinceRun is the change one run checks.
type sinceRun struct {
	rev  string // as the user gave it
	base string // the commit the change is measured from
	// changes are the changed Go files, by absolute name.
	changes map[string]static.Change
	// lines counts the changed lines of Go files.
	lines int
	dir   string // where the fragments file goes
	path  string // the fragments file, once analyzed
	res   *static.Since
	// skipped counts the tests and packages not run.
	skippedTests, skippedPkgs int
	skippedNames              []string
	analysisTime              time.Duration
	// unaffected are the packages whose tests the change cannot reach.
	unaffected map[string]bool
	// root is the repository's top directory; old are the lines of
	// the base version the diff removes or replaces, by the file's
	// absolute name; opaque says the diff deletes a Go file (what it
	// held is not checked line by line).
	root   string
	old    map[string][]static.LineRange
	opaque bool
	// syntaxOnly: the changed lines hold no thread interaction by their
	// syntax, and the packages were not loaded (sequential), nor their
	// tests run: unaffectedList are the packages with tests.
	syntaxOnly     bool
	unaffectedList []string
}

// sequential reports whether every line the diff adds, changes or
// removes holds no thread interaction by its syntax alone
// (static.Sequential), in the new version and in the base one: then no
// test can be affected, and loading the packages for the analysis (type
// information for all their dependencies: seconds with a cold build
// cache) is skipped. The tests not run are listed from the test files'
// syntax, as go test finds them.
func (s *sinceRun) sequential(ctx context.Context, o *testOptions) bool {
	start := time.Now()
	if s.opaque || o.results != "" || o.goJSON || len(o.annotations) > 0 || o.coverage != "" || o.shards > 0 || o.state != "" {
		// Those outputs and searches take the packages as loaded.
		return false
	}
	for file, c := range s.changes {
		src, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		// A pure deletion is checked on the base version's lines.
		if ok, _ := static.Sequential(file, src, c.Lines); !ok {
			return false
		}
	}
	for file, lines := range s.old {
		rel, err := filepath.Rel(s.root, file)
		if err != nil {
			return false
		}
		src, err := git(ctx, s.root, "show", s.base+":"+filepath.ToSlash(rel))
		if err != nil {
			return false
		}
		if ok, _ := static.Sequential(file, []byte(src), lines); !ok {
			return false
		}
	}
	pkgs, err := listTests(ctx, o)
	if err != nil || len(pkgs) == 0 {
		return false // the full path reports the patterns' problems
	}
	s.syntaxOnly = true
	s.res = &static.Since{Tests: map[string]map[string]bool{}}
	for _, p := range pkgs {
		if len(p.tests) == 0 {
			continue
		}
		s.skippedTests += len(p.tests)
		s.skippedNames = append(s.skippedNames, p.tests...)
		s.skippedPkgs++
		s.unaffectedList = append(s.unaffectedList, p.path)
	}
	s.analysisTime = time.Since(start)
	return true
}

// syntaxOnlyRun ends a run whose change holds no thread interaction by
// its syntax: the packages with tests are reported not run, as the full
// path reports those the change cannot reach, then the line on the
// change and the summary.
func (s *sinceRun) syntaxOnlyRun(o *testOptions, stdout, stderr io.Writer) int {
	if !o.seedSet {
		o.seed = time.Now().UnixNano() & 0x7fffffff // as runTest, for the summary
	}
	rep := newReporter(stdout, stderr, o.json, o.verbose, o.strategy, o.seed)
	for _, p := range s.unaffectedList {
		rep.pkgLine("ok", p, "[not run: the change cannot reach its tests]")
	}
	s.report(rep)
	rep.summary()
	return exitOK
}

// testList is a package's test functions, for the summary of a change
// that runs none.
type testList struct {
	path  string
	tests []string
}

// listTests lists the packages that o's patterns match, with the test
// functions of their test files (found from the syntax: a func TestXxx
// with one parameter, as go test finds them), each package's sorted.
func listTests(ctx context.Context, o *testOptions) ([]testList, error) {
	args := []string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}"}
	if o.gotest.tags != "" {
		args = append(args, "-tags", o.gotest.tags)
	}
	args = append(args, "--")
	args = append(args, o.packages...)
	cmd := exec.CommandContext(ctx, "go", args...)
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var pkgs []testList
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			continue
		}
		p := testList{path: f[0]}
		for _, name := range strings.Fields(f[2]) {
			tests, err := testFuncs(filepath.Join(f[1], name))
			if err != nil {
				return nil, err
			}
			p.tests = append(p.tests, tests...)
		}
		sort.Strings(p.tests)
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// testFuncs are the test functions of a test file.
func testFuncs(file string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.Params.NumFields() != 1 || !isTestFunc(fd.Name.Name) {
			continue
		}
		names = append(names, fd.Name.Name)
	}
	return names, nil
}

// isTestFunc follows go test: Test, then nothing or a non-lowercase rune.
func isTestFunc(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// newSinceRun resolves rev and reads the diff from its merge base with
// HEAD to the working tree (uncommitted and untracked files included).
func newSinceRun(ctx context.Context, cwd, rev string) (*sinceRun, error) {
	root, err := git(ctx, cwd, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, usagef("--since %s: %s is not in a git repository", rev, cwd)
	}
	root = strings.TrimSpace(root)
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	s := &sinceRun{rev: rev, changes: map[string]static.Change{}, root: root, old: map[string][]static.LineRange{}}
	target := rev
	if rev == "auto" {
		if target, err = defaultBase(ctx, root); err != nil {
			return nil, err
		}
	}
	if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", target+"^{commit}"); err != nil {
		return nil, usagef("--since %s: not a git revision", rev)
	}
	s.base = target
	if mb, err := git(ctx, root, "merge-base", target, "HEAD"); err == nil {
		s.base = strings.TrimSpace(mb)
	}
	diff, err := git(ctx, root, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", s.base, "--", "*.go")
	if err != nil {
		return nil, fmt.Errorf("--since %s: git diff: %v", rev, err)
	}
	s.parseDiff(root, diff)
	untracked, err := git(ctx, root, "ls-files", "--others", "--exclude-standard", "--", "*.go")
	if err == nil {
		for _, f := range strings.Fields(untracked) {
			b, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				continue
			}
			n := bytes.Count(b, []byte("\n")) + 1
			s.changes[filepath.Join(root, f)] = static.Change{Lines: []static.LineRange{{From: 1, To: n}}}
			s.lines += n
		}
	}
	return s, nil
}

// defaultBase is the revision "auto" stands for: the base branch of the
// pull request under GitHub Actions or GitLab CI, else origin/main,
// origin/master, main, master.
func defaultBase(ctx context.Context, root string) (string, error) {
	var cands []string
	if b := os.Getenv("GITHUB_BASE_REF"); b != "" {
		cands = append(cands, "origin/"+b)
	}
	if b := os.Getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"); b != "" {
		cands = append(cands, "origin/"+b)
	}
	cands = append(cands, "origin/main", "origin/master", "main", "master")
	for _, c := range cands {
		if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", c+"^{commit}"); err == nil {
			return c, nil
		}
	}
	return "", usagef("--since auto: no main branch found (tried %s): name the revision", strings.Join(cands, ", "))
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("%s", msg)
		}
		return "", err
	}
	return string(out), nil
}

// parseDiff reads `git diff -U0`: the new side's line ranges of each
// hunk; a hunk that only deletes is a removal after its line, unless the
// lines it deletes hold only blanks and comments. The old side's ranges
// (the lines removed or replaced) go to s.old, and a deleted file makes
// the diff opaque to the syntactic check (sequential).
func (s *sinceRun) parseDiff(root, diff string) {
	if s.old == nil {
		s.old = map[string][]static.LineRange{}
	}
	var file string
	var c static.Change
	var removed int = -1 // a pending pure deletion, after this line
	meaningful := false
	flushRemoval := func() {
		if removed >= 0 && meaningful {
			c.Removed = append(c.Removed, removed)
		}
		removed, meaningful = -1, false
	}
	flush := func() {
		flushRemoval()
		if file != "" && (len(c.Lines) > 0 || len(c.Removed) > 0) {
			s.changes[file] = c
		}
		file, c = "", static.Change{}
	}
	sc := bufio.NewScanner(strings.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			flush()
		case strings.HasPrefix(line, "+++ "):
			name := strings.TrimPrefix(line, "+++ ")
			if name == "/dev/null" || !strings.HasPrefix(name, "b/") {
				s.opaque = true
				file = ""
				continue
			}
			file = filepath.Join(root, strings.TrimPrefix(name, "b/"))
		case strings.HasPrefix(line, "@@ "):
			flushRemoval()
			from, n, ok := newSide(line)
			if !ok || file == "" {
				continue
			}
			if of, on, ok := side(line, " -"); ok && on > 0 {
				s.old[file] = append(s.old[file], static.LineRange{From: of, To: of + on - 1})
			}
			if n == 0 {
				removed = from // git gives the line before the gap
				continue
			}
			c.Lines = append(c.Lines, static.LineRange{From: from, To: from + n - 1})
			s.lines += n
		case strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "---"):
			if removed >= 0 {
				t := strings.TrimSpace(line[1:])
				if t != "" && !strings.HasPrefix(t, "//") {
					meaningful = true
					s.lines++
				}
			}
		}
	}
	flush()
}

// newSide parses the "+c,d" of a hunk header.
func newSide(h string) (from, n int, ok bool) { return side(h, " +") }

// side parses the "-a,b" (mark " -") or "+c,d" (mark " +") of a hunk
// header.
func side(h, mark string) (from, n int, ok bool) {
	i := strings.Index(h, mark)
	if i < 0 {
		return 0, 0, false
	}
	rest := h[i+2:]
	if j := strings.IndexByte(rest, ' '); j >= 0 {
		rest = rest[:j]
	}
	a, b, has := strings.Cut(rest, ",")
	from, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	n = 1
	if has {
		if n, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return from, n, true
}

// analyze runs on the loaded packages, before they are rewritten: the
// fragments file for the strategy, the tests to run.
func (s *sinceRun) analyze(l *rewrite.Loaded) error {
	start := time.Now()
	defer func() { s.analysisTime = time.Since(start) }()
	prog, err := static.Load(l.Fset, l.Packages)
	if err != nil {
		return fmt.Errorf("--since: %v", err)
	}
	// The loaded files' names may differ from git's by symbolic links.
	changes := map[string]static.Change{}
	for f, c := range s.changes {
		changes[f] = c
	}
	for f := range prog.Files {
		if _, ok := changes[f]; ok {
			continue
		}
		if r, err := filepath.EvalSymlinks(f); err == nil {
			if c, ok := s.changes[r]; ok {
				changes[f] = c
			}
		}
	}
	s.res = prog.Since(changes)
	s.res.Fragments.Since = s.rev
	s.path = filepath.Join(s.dir, "fragments.json")
	return strategies.WriteFragments(s.path, &s.res.Fragments)
}

// restrict keeps in each package the tests the change can reach, and
// notes the packages left without one.
func (s *sinceRun) restrict(pkgs []*rewrite.Package) {
	s.unaffected = map[string]bool{}
	for _, p := range pkgs {
		var keep []string
		for _, t := range p.Tests {
			if s.res != nil && s.res.Affected(p.ImportPath, t) {
				keep = append(keep, t)
			} else {
				s.skippedTests++
				s.skippedNames = append(s.skippedNames, t)
			}
		}
		if len(keep) == 0 && len(p.Tests) > 0 {
			s.skippedPkgs++
			s.unaffected[p.ImportPath] = true
		}
		p.Tests = keep
	}
}

// describe is the summary's line on the change.
func (s *sinceRun) describe() string {
	nf := 0
	var fr []string
	if s.res != nil {
		nf = len(s.res.Fragments.Frags)
		for _, f := range s.res.Fragments.Frags {
			fr = append(fr, fmt.Sprintf("%s:%d-%d", filepath.Base(f.File), f.From, f.To))
		}
	}
	sort.Strings(fr)
	if len(s.changes) == 0 {
		return fmt.Sprintf("change since %s: no Go file changed, no test to run", s.rev)
	}
	msg := fmt.Sprintf("change since %s: %d changed line%s, %d modified fragment%s", s.rev, s.lines, plural(s.lines), nf, plural(nf))
	if s.syntaxOnly {
		msg += " (no thread interaction on them, by their syntax: nothing loaded)"
	}
	if len(fr) > 0 {
		if len(fr) > 6 {
			fr = append(fr[:6], "...")
		}
		msg += " (" + strings.Join(fr, ", ") + ")"
	}
	if s.analysisTime > 0 {
		msg += fmt.Sprintf(" in %.1fs of analysis", s.analysisTime.Seconds())
	}
	if s.res != nil && len(s.res.Fragments.Spawns) > 0 {
		msg += fmt.Sprintf(", %d go statement%s reaching them", len(s.res.Fragments.Spawns), plural(len(s.res.Fragments.Spawns)))
	}
	if s.skippedTests > 0 {
		names := s.skippedNames
		if len(names) > 8 {
			names = append(names[:8:8], fmt.Sprintf("and %d more", len(s.skippedNames)-8))
		}
		msg += fmt.Sprintf("; not run, the change cannot reach them: %d test%s (%s)", s.skippedTests, plural(s.skippedTests), strings.Join(names, ", "))
		if s.skippedPkgs > 0 {
			msg += fmt.Sprintf(", %d package%s entirely", s.skippedPkgs, plural(s.skippedPkgs))
		}
	}
	return msg
}

// startSince prepares a --since run: the diff, and the analysis chained
// after any other the run does. done is true when the run is over before
// it began: a bad revision (code 2), or no Go file changed (code 0, in
// well under a second: nothing is loaded or built).
func startSince(ctx context.Context, o *testOptions, cwd string, opts *rewrite.Options, stdout, stderr io.Writer) (s *sinceRun, code int, done bool) {
	if o.since == "" {
		return nil, 0, false
	}
	s, err := newSinceRun(ctx, cwd, o.since)
	if err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return nil, exitError, true
	}
	if len(s.changes) == 0 {
		if o.json {
			json.NewEncoder(stdout).Encode(jsonMessage{Event: "since", Message: s.describe()})
		} else {
			fmt.Fprintf(stdout, "gosct: %s\n", s.describe())
		}
		return nil, exitOK, true
	}
	if s.sequential(ctx, o) {
		return s, 0, false // nothing to load, build or explore (syntaxOnlyRun)
	}
	if s.dir, err = os.MkdirTemp("", "gosct-since-"); err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return nil, exitError, true
	}
	prev := opts.Analyze
	opts.Analyze = func(l *rewrite.Loaded) error {
		if prev != nil {
			if err := prev(l); err != nil {
				return err
			}
		}
		return s.analyze(l)
	}
	return s, 0, false
}

// report prints the line on the change, before the summary: on stdout
// with it, or as a JSON event.
func (s *sinceRun) report(rep *reporter) {
	if rep.json {
		rep.message("since", "", "", "", s.describe())
		return
	}
	rep.mu.Lock()
	defer rep.mu.Unlock()
	rep.clear()
	fmt.Fprintf(rep.stdout, "gosct: %s\n", s.describe())
}
