package static

import (
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gosct/gosct/strategies"
	"golang.org/x/tools/go/packages"
)

// load loads the packages of dir (with their tests) the way the rewriter
// does, and builds their SSA form.
func load(t *testing.T, dir string, patterns ...string) (*Program, []*packages.Package) {
	t.Helper()
	fset := token.NewFileSet()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedTypes | packages.NeedTypesInfo |
			packages.NeedSyntax | packages.NeedModule | packages.NeedTypesSizes,
		Dir: dir, Tests: true, Fset: fset,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.ID, p.Errors)
		}
	}
	p, err := Load(fset, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return p, pkgs
}

// guideOf computes the guide of one package of testdata/mod.
func guideOf(t *testing.T, pkg string) *strategies.Guide {
	t.Helper()
	p, _ := load(t, filepath.Join("testdata", "mod"), "./"+pkg)
	seqs, err := p.Sequences(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Guide(seqs)
}

// seqs lists a guide's sequences as "kind: key key ...", keys as
// file:line.
func seqs(g *strategies.Guide) []string {
	var out []string
	for _, s := range g.Seqs {
		var ks []string
		for _, k := range s.Keys {
			ks = append(ks, g.Keys[k].Pos)
		}
		out = append(out, s.Kind+": "+strings.Join(ks, " "))
	}
	return out
}

func hasSeq(g *strategies.Guide, want string) bool {
	for _, s := range seqs(g) {
		if s == want {
			return true
		}
	}
	return false
}

// dist returns the park, after and start distances of line (file.go:N)
// to the key at pos; -1 for unreachable, and ok false when the key does
// not list the line.
func dist(t *testing.T, g *strategies.Guide, pos, line string) (park, after, start int32, ok bool) {
	t.Helper()
	li := lineIndex(t, g, line)
	for _, k := range g.Keys {
		if k.Pos != pos {
			continue
		}
		for j := 0; j < len(k.Dist); j += 4 {
			if int(k.Dist[j]) == li {
				return k.Dist[j+1], k.Dist[j+2], k.Dist[j+3], true
			}
		}
		return -1, -1, -1, false
	}
	t.Fatalf("no key at %s: %v", pos, seqs(g))
	return
}

func lineIndex(t *testing.T, g *strategies.Guide, line string) int {
	t.Helper()
	i := strings.LastIndexByte(line, ':')
	n, _ := strconv.Atoi(line[i+1:])
	for li, l := range g.Lines {
		if filepath.Base(g.Files[l.File]) == line[:i] && l.Line == n {
			return li
		}
	}
	t.Fatalf("no line %s in the guide", line)
	return -1
}

// The thesis's polymorphic example: through the interface call, the
// distance follows the implementation that reaches the target (Y), and
// the other one (Z) cannot reach it.
func TestPolymorphicDistance(t *testing.T) {
	g := guideOf(t, "poly")
	if !hasSeq(g, "panic: poly.go:18") {
		t.Fatalf("sequences %v", seqs(g))
	}
	for _, c := range []struct {
		line       string
		park, afer int32
	}{
		{"poly.go:16", 1, 1},  // Lock: then Unlock, then the panic
		{"poly.go:17", 0, 0},  // Unlock: the panic is in the same step
		{"poly.go:29", 2, -1}, // the write, then x.aa() reaches Y.cc's Lock and Unlock
		{"poly.go:30", 2, -1}, // x.aa(): no scheduling point on the line
		// test(&Y{}): the write too; after it, test(&Z{}) may reach
		// the target as far as a context-insensitive analysis knows.
		{"poly.go:34", 3, 3},
	} {
		park, after, _, ok := dist(t, g, "poly.go:18", c.line)
		if !ok || park != c.park || after != c.afer {
			t.Errorf("%s: park %d after %d (listed %v), want %d %d", c.line, park, after, ok, c.park, c.afer)
		}
	}
	if _, _, _, ok := dist(t, g, "poly.go:18", "poly.go:23"); ok {
		t.Errorf("Z.aa's Lock can reach Y.cc's panic")
	}
	// test's write is 2 points from test's end, through Z.aa (Y.cc
	// never returns).
	l := g.Lines[lineIndex(t, g, "poly.go:29")]
	if l.ExitPark != 2 {
		t.Errorf("exit distance of poly.go:29: %d, want 2", l.ExitPark)
	}
}

// Distances across calls: a call costs the cheapest way through its
// callee; a target beyond a function's end is reached through the caller
// (the line's after distance), at run time.
func TestDistanceThroughCalls(t *testing.T) {
	g := guideOf(t, "deep")
	for _, c := range []struct {
		line        string
		park, after int32
		listed      bool
	}{
		{"deep.go:28", 8, 0, true}, // twice() then fail(): 2 × (Lock, read x, write x, Unlock)
		{"deep.go:29", 0, -1, true},
		{"deep.go:19", 0, 0, false}, // inside twice: the panic is not below it
	} {
		park, after, _, ok := dist(t, g, "deep.go:24", c.line)
		if ok != c.listed || ok && (park != c.park || after != c.after) {
			t.Errorf("%s: park %d after %d listed %v, want %d %d %v", c.line, park, after, ok, c.park, c.after, c.listed)
		}
	}
	for _, c := range []struct {
		line        string
		park, after int32
	}{
		{"deep.go:19", 8, 4}, // step(), step(): 4 + 4 to twice's end
		{"deep.go:14", 1, -1},
	} {
		l := g.Lines[lineIndex(t, g, c.line)]
		if l.ExitPark != c.park || l.ExitAfter != c.after {
			t.Errorf("%s: exit distances %d %d, want %d %d", c.line, l.ExitPark, l.ExitAfter, c.park, c.after)
		}
	}
}

func TestLockOrder(t *testing.T) {
	g := guideOf(t, "locks")
	for _, want := range []string{
		// A goroutine takes a.mu, another b.mu, then each waits.
		"deadlock: locks.go:16 locks.go:25 locks.go:17 locks.go:26",
		// Put holds s.mu and calls Len, which takes it again.
		"deadlock: locks.go:45 locks.go:39",
	} {
		if !hasSeq(g, want) {
			t.Errorf("no sequence %q in %v", want, seqs(g))
		}
	}
	for _, k := range g.Keys {
		if k.Pos == "locks.go:16" && k.Op != "mutex lock" {
			t.Errorf("key %s has op %q, want mutex lock", k.Pos, k.Op)
		}
	}
}

func TestChannelTargets(t *testing.T) {
	g := guideOf(t, "chans")
	for _, want := range []string{
		"close: chans.go:10 chans.go:10", // stop twice
		"close: chans.go:18 chans.go:18",
		"send: chans.go:18 chans.go:14", // publish after shutdown
	} {
		if !hasSeq(g, want) {
			t.Errorf("no sequence %q in %v", want, seqs(g))
		}
	}
	for _, s := range seqs(g) {
		if strings.Contains(s, "chans.go:23") || strings.Contains(s, "chans.go:10 chans.go:18") || strings.Contains(s, "chans.go:10 chans.go:14") {
			t.Errorf("sequence %q relates unrelated channels", s)
		}
	}
}

// A failure inside a t.Run callback is reachable from the test; the
// sequence starts with the write of what the failing branch reads.
func TestCallbackTargets(t *testing.T) {
	g := guideOf(t, "subtests")
	if !hasSeq(g, "failure: subtests.go:6 subtests_test.go:10") {
		t.Fatalf("sequences %v", seqs(g))
	}
	if _, _, _, ok := dist(t, g, "subtests_test.go:10", "subtests_test.go:7"); !ok {
		t.Errorf("the t.Run call cannot reach the failure in its callback")
	}
	// c.n++ reads, then writes.
	if _, _, start, ok := dist(t, g, "subtests.go:6", "subtests_test.go:8"); !ok || start != 2 {
		t.Errorf("a goroutine started at subtests_test.go:8 is %d from the write (listed %v), want 2", start, ok)
	}
}

// On the thesis's TwoStage (SCTBench's port), the sequences are the
// writes of data1 and data2, each followed by the reader's t.Errorf.
func TestTwoStageSequences(t *testing.T) {
	p, _ := load(t, filepath.Join("..", "testprogs"), "./sctbench/cs_twostage_bad")
	ss, err := p.Sequences(Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := p.Guide(ss)
	for _, want := range []string{
		"failure: cs_twostage_bad.go:46 cs_twostage_bad.go:68",
		"failure: cs_twostage_bad.go:50 cs_twostage_bad.go:68",
	} {
		if !hasSeq(g, want) {
			t.Errorf("no sequence %q in %v", want, seqs(g))
		}
	}
	// The writer parked at its Lock is one point from the write.
	if park, _, _, _ := dist(t, g, "cs_twostage_bad.go:46", "cs_twostage_bad.go:45"); park != 1 {
		t.Errorf("distance from the Lock to the write: %d, want 1", park)
	}
}

func TestUserTarget(t *testing.T) {
	p, _ := load(t, filepath.Join("testdata", "mod"), "./deep")
	dir, _ := filepath.Abs(filepath.Join("testdata", "mod"))
	ss, err := p.Sequences(Options{Targets: []string{"deep/deep.go:14"}, Dir: dir, NoAuto: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Kind != "target" || ss[0].Keys[len(ss[0].Keys)-1].String() != "deep.go:14" {
		t.Fatalf("sequences %+v", ss)
	}
	for _, bad := range []string{"deep.go:1", "nosuch.go:3", "deep.go:x", "deep.go"} {
		_, err := p.Sequences(Options{Targets: []string{bad}, Dir: dir})
		var te *TargetError
		if err == nil || !asTargetError(err, &te) {
			t.Errorf("--target %s: error %v, want a TargetError", bad, err)
		}
	}
}

func asTargetError(err error, te **TargetError) bool {
	e, ok := err.(*TargetError)
	*te = e
	return ok
}

// The guide is cached per set of files: a second call reads it.
func TestCachedGuide(t *testing.T) {
	p, pkgs := load(t, filepath.Join("testdata", "mod"), "./chans")
	cache := t.TempDir()
	path, st, err := CachedGuide(p.Fset, pkgs, cache, Options{})
	if err != nil || st.Cached {
		t.Fatalf("first: %v cached %v", err, st.Cached)
	}
	path2, st, err := CachedGuide(p.Fset, pkgs, cache, Options{})
	if err != nil || !st.Cached || path2 != path {
		t.Fatalf("second: %v cached %v %s %s", err, st.Cached, path, path2)
	}
	g, err := strategies.ReadGuide(path)
	if err != nil || g.ID == "" || len(g.Seqs) == 0 {
		t.Fatalf("guide %v: %+v", err, g)
	}
	_, st, _ = CachedGuide(p.Fset, pkgs, cache, Options{Targets: []string{"chans.go:14"}})
	if st.Cached {
		t.Errorf("other targets, same cached guide")
	}
}

// Sites maps lines to their scheduling points, as issue-style tools
// (changed lines) need.
func TestSites(t *testing.T) {
	p, _ := load(t, filepath.Join("testdata", "mod"), "./locks")
	sites := p.Sites()
	var ops []string
	for l, instrs := range sites {
		if filepath.Base(l.File) == "locks.go" && l.Line == 16 {
			for _, in := range instrs {
				ops = append(ops, p.Op(in))
			}
		}
	}
	if len(ops) == 0 || ops[0] != "mutex lock" {
		t.Errorf("scheduling points at locks.go:16: %v", ops)
	}
}

// With the race detector on, a write and an access of the same field in
// different functions with no lock in common are a race target; accesses
// under a common lock are not.
func TestRaceTargets(t *testing.T) {
	p, _ := load(t, filepath.Join("..", "testprogs"), "./sctbench/cs_reorder_3_bad")
	ss, err := p.Sequences(Options{Races: true})
	if err != nil {
		t.Fatal(err)
	}
	races := 0
	for _, s := range ss {
		if s.Kind == "race" {
			races++
		}
	}
	if races == 0 {
		t.Errorf("no race target in reorder: %d sequences", len(ss))
	}
	ss, _ = p.Sequences(Options{})
	for _, s := range ss {
		if s.Kind == "race" {
			t.Errorf("a race target with the race detector off: %s", s.What)
		}
	}
	g := guideOf(t, "locks")
	for _, s := range g.Seqs {
		if s.Kind == "race" {
			t.Errorf("race target without Races")
		}
	}
	p, _ = load(t, filepath.Join("testdata", "mod"), "./locks")
	ss, _ = p.Sequences(Options{Races: true})
	for _, s := range ss {
		if s.Kind == "race" {
			t.Errorf("race target on accesses under a common lock: %s", s.What)
		}
	}
}

// A failure reached through a chain of calls, whose branch reads only
// parameters: the writes come from following them to the arguments of
// the calls, and those to what the callee the consumer called returns
// (the thesis's call chains, Eq. 2.1). The failure key lists them as the
// keys a refinement may insert before it.
func TestCallChainSequences(t *testing.T) {
	g := guideOf(t, "callchain")
	for _, want := range []string{
		"failure: callchain.go:19 callchain.go:43",
		"failure: callchain.go:22 callchain.go:43",
	} {
		if !hasSeq(g, want) {
			t.Errorf("no sequence %q in %v", want, seqs(g))
		}
	}
	for _, k := range g.Keys {
		if k.Pos != "callchain.go:43" {
			continue
		}
		var before []string
		for _, b := range k.Before {
			before = append(before, g.Keys[b].Pos)
		}
		if strings.Join(before, " ") != "callchain.go:19 callchain.go:22" {
			t.Errorf("keys before the failure: %v", before)
		}
	}
}

// A cycle of three locks in the lock graph (one edge through a call) is a
// six-key sequence: the three first locks, then the three second ones.
func TestLockCycle3(t *testing.T) {
	g := guideOf(t, "lockcycle")
	if want := "deadlock: lockcycle.go:19 lockcycle.go:25 lockcycle.go:33 lockcycle.go:13 lockcycle.go:26 lockcycle.go:34"; !hasSeq(g, want) {
		t.Errorf("no sequence %q in %v", want, seqs(g))
	}
	n := 0
	for _, s := range g.Seqs {
		if s.Kind == "deadlock" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d deadlock sequences, want the cycle once: %v", n, seqs(g))
	}
}

// Channels handed to functions and captured by closures keep their
// identity: the sends and closes of jobs are related, those of results to
// nothing (it is never closed), whatever their element types.
func TestChannelFlow(t *testing.T) {
	g := guideOf(t, "chanflow")
	for _, want := range []string{
		"send: chanflow.go:10 chanflow.go:6",
		"send: chanflow.go:21 chanflow.go:6",
		"close: chanflow.go:10 chanflow.go:21",
		"close: chanflow.go:21 chanflow.go:10",
	} {
		if !hasSeq(g, want) {
			t.Errorf("no sequence %q in %v", want, seqs(g))
		}
	}
	for _, s := range seqs(g) {
		if strings.Contains(s, "chanflow.go:18") {
			t.Errorf("sequence %q: results is never closed", s)
		}
	}
}
