package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/rewrite"
)

// The coverage report (gosct test --coverage FILE): per test, the
// scheduling points its schedules reached and, for each pair of
// conflicting points, in how many schedules each order happened
// (runtime/coverage.go defines them); per package, the share of the
// points the rewriter inserted that some test reached, and those none
// did. A passing run then shows whether it exercised the code the user
// cares about. FILE ending in .json gets the same as JSON.
//
// The runtime reports positions (file:line of the user's call); the
// rewriter lists its points (rewrite.Package.Points). They are compared
// by line: a line is reached when a scheduling point on it is.

// coverageReport gathers the coverage events of a run.
type coverageReport struct {
	file string
	cwd  string
	// accessPoints: shared-memory accesses are scheduling points (not
	// --races sync); otherwise they are not counted among the points.
	accessPoints bool
	pkgs         []*covPkg
	byPkg        map[string]*covPkg
}

type covPkg struct {
	path  string
	lines map[string][]string // "file:line" (absolute) -> operations inserted there
	tests []*covTest
	by    map[string]*covTest
}

type covTest struct {
	name      string
	schedules int
	recorded  bool // a coverage event came
	result    string
	points    map[string]*covPointAgg // pos + "\x00" + op
	pairs     map[[2]string]int       // ordered pair of point keys -> schedules
}

type covPointAgg struct {
	pos, op   string
	schedules int
}

func newCoverageReport(file, cwd string, accessPoints bool) *coverageReport {
	return &coverageReport{file: file, cwd: cwd, accessPoints: accessPoints, byPkg: map[string]*covPkg{}}
}

// pkg returns the package's record, made on first use.
func (c *coverageReport) pkg(path string) *covPkg {
	p := c.byPkg[path]
	if p == nil {
		p = &covPkg{path: path, lines: map[string][]string{}, by: map[string]*covTest{}}
		c.byPkg[path] = p
		c.pkgs = append(c.pkgs, p)
	}
	return p
}

// addPackage records the points the rewriter inserted in pkg.
func (c *coverageReport) addPackage(pkg *rewrite.Package) {
	p := c.pkg(pkg.ImportPath)
	for _, pt := range pkg.Points {
		if !c.accessPoints && (pt.Op == "read" || pt.Op == "write") {
			continue
		}
		k := fmt.Sprintf("%s:%d", pt.File, pt.Line)
		if !contains(p.lines[k], pt.Op) {
			p.lines[k] = append(p.lines[k], pt.Op)
		}
	}
}

func (p *covPkg) test(name string) *covTest {
	t := p.by[name]
	if t == nil {
		t = &covTest{name: name, points: map[string]*covPointAgg{}, pairs: map[[2]string]int{}}
		p.by[name] = t
		p.tests = append(p.tests, t)
	}
	return t
}

// add merges a coverage event (one per test binary run: several for a
// test explored one process per schedule).
func (c *coverageReport) add(pkg string, e wire.Event) {
	if e.Coverage == nil {
		return
	}
	t := c.pkg(pkg).test(strings.SplitN(e.Test, "/", 2)[0])
	t.recorded = true
	keys := make([]string, len(e.Coverage.Points))
	for i, p := range e.Coverage.Points {
		k := p.Pos + "\x00" + p.Op
		keys[i] = k
		a := t.points[k]
		if a == nil {
			a = &covPointAgg{pos: p.Pos, op: p.Op}
			t.points[k] = a
		}
		a.schedules += p.Schedules
	}
	for _, pr := range e.Coverage.Pairs {
		if pr.A < 0 || pr.A >= len(keys) || pr.B < 0 || pr.B >= len(keys) {
			continue
		}
		t.pairs[[2]string{keys[pr.A], keys[pr.B]}] += pr.Schedules
	}
}

// testDone records a test function's end: its schedules and result.
func (c *coverageReport) testDone(pkg string, e wire.Event) {
	t := c.pkg(pkg).test(e.Test)
	t.schedules += e.Schedules
	t.result = e.Outcome()
}

// reachedLines are the package's point lines that t reached.
func (p *covPkg) reachedLines(t *covTest) map[string]bool {
	out := map[string]bool{}
	for _, a := range t.points {
		if _, ok := p.lines[a.pos]; ok {
			out[a.pos] = true
		}
	}
	return out
}

// covPairView is an unordered pair of points with the schedules of each
// order; same is a point whose operation conflicted with itself in two
// goroutines (one order).
type covPairView struct {
	a, b           *covPointAgg
	aFirst, bFirst int
	same           bool
}

func (t *covTest) pairViews() []covPairView {
	seen := map[[2]string]bool{}
	var out []covPairView
	for k, n := range t.pairs {
		a, b := k[0], k[1]
		if a > b {
			a, b = b, a
		}
		u := [2]string{a, b}
		if seen[u] {
			continue
		}
		seen[u] = true
		v := covPairView{a: t.points[a], b: t.points[b], same: a == b}
		if v.a == nil || v.b == nil {
			continue
		}
		if k[0] == a {
			v.aFirst, v.bFirst = n, t.pairs[[2]string{b, a}]
		} else {
			v.aFirst, v.bFirst = t.pairs[[2]string{a, b}], n
		}
		if v.same {
			v.bFirst = 0
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].a.pos != out[j].a.pos {
			return posLess(out[i].a.pos, out[j].a.pos)
		}
		if out[i].a.op != out[j].a.op {
			return out[i].a.op < out[j].a.op
		}
		if out[i].b.pos != out[j].b.pos {
			return posLess(out[i].b.pos, out[j].b.pos)
		}
		return out[i].b.op < out[j].b.op
	})
	return out
}

// bothOrders reports whether the pair was seen in each of its orders.
func (v covPairView) bothOrders() bool { return v.same || v.aFirst > 0 && v.bFirst > 0 }

// posLess orders "file:line" positions by file, then line as a number.
func posLess(a, b string) bool {
	fa, la, _ := parsePos(a)
	fb, lb, _ := parsePos(b)
	if fa != fb {
		return fa < fb
	}
	return la < lb
}

// totals are the run's figures for the summary line.
type covTotals struct {
	points, reached, pairs, both int
}

func (c *coverageReport) totals() covTotals {
	var s covTotals
	for _, p := range c.pkgs {
		all := map[string]bool{}
		for _, t := range p.tests {
			for l := range p.reachedLines(t) {
				all[l] = true
			}
			for _, v := range t.pairViews() {
				s.pairs++
				if v.bothOrders() {
					s.both++
				}
			}
		}
		s.points += len(p.lines)
		s.reached += len(all)
	}
	return s
}

// summary is the line the run ends with.
func (c *coverageReport) summary() string {
	s := c.totals()
	return fmt.Sprintf("coverage: %d of %d scheduling points reached (%s), %d pair%s of conflicting points (%d in both orders); report in %s",
		s.reached, s.points, percent(s.reached, s.points), s.pairs, plural(s.pairs), s.both, c.file)
}

func percent(n, of int) string {
	if of == 0 {
		return "no point"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
}

// rel is a position or file relative to the working directory.
func (c *coverageReport) rel(pos string) string {
	if l := relLocation(c.cwd, pos); l.file != "" {
		return l.String()
	}
	return pos
}

// write writes the report to its file, as text or (FILE.json) JSON.
func (c *coverageReport) write(header string) error {
	var data []byte
	if strings.HasSuffix(c.file, ".json") {
		b, err := json.MarshalIndent(c.jsonReport(), "", "  ")
		if err != nil {
			return err
		}
		data = append(b, '\n')
	} else {
		data = []byte(c.text(header))
	}
	if err := writeFileAtomic(c.file, data); err != nil {
		return fmt.Errorf("--coverage: %v", err)
	}
	return nil
}

// text renders the report for people.
func (c *coverageReport) text(header string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gosct coverage: the scheduling points each test's schedules reached, and the\n")
	fmt.Fprintf(&b, "orders tried of each pair of conflicting points (docs/usage.md, \"What was explored\").\n")
	fmt.Fprintf(&b, "%s\n", header)
	s := c.totals()
	fmt.Fprintf(&b, "%d of %d scheduling points reached (%s); %d pairs of conflicting points, %d seen in both orders.\n",
		s.reached, s.points, percent(s.reached, s.points), s.pairs, s.both)
	for _, p := range c.pkgs {
		all := map[string]bool{}
		for _, t := range p.tests {
			for l := range p.reachedLines(t) {
				all[l] = true
			}
		}
		fmt.Fprintf(&b, "\n== package %s: %d of %d scheduling points reached (%s)\n", p.path, len(all), len(p.lines), percent(len(all), len(p.lines)))
		var missed []string
		for l := range p.lines {
			if !all[l] {
				missed = append(missed, l)
			}
		}
		sort.Slice(missed, func(i, j int) bool { return posLess(missed[i], missed[j]) })
		if len(missed) > 0 {
			fmt.Fprintf(&b, "   reached by no test:\n")
			for _, l := range missed {
				fmt.Fprintf(&b, "     %-32s %s\n", c.rel(l), strings.Join(p.lines[l], ", "))
			}
		}
		for _, t := range p.tests {
			c.testText(&b, p, t)
		}
	}
	return b.String()
}

func (c *coverageReport) testText(b *strings.Builder, p *covPkg, t *covTest) {
	fmt.Fprintf(b, "\n-- %s: %d schedule%s", t.name, t.schedules, plural(t.schedules))
	if t.result != "" && t.result != wire.OutcomeOK {
		fmt.Fprintf(b, " (%s)", t.result)
	}
	if !t.recorded {
		fmt.Fprintf(b, "; no coverage recorded (the test binary reported none: it stopped before the test's end)\n")
		return
	}
	reached := p.reachedLines(t)
	views := t.pairViews()
	both := 0
	for _, v := range views {
		if v.bothOrders() {
			both++
		}
	}
	fmt.Fprintf(b, "; %d of the package's %d points reached (%s); %d pair%s of conflicting points, %d in both orders\n",
		len(reached), len(p.lines), percent(len(reached), len(p.lines)), len(views), plural(len(views)), both)
	pts := make([]*covPointAgg, 0, len(t.points))
	for _, a := range t.points {
		pts = append(pts, a)
	}
	sort.Slice(pts, func(i, j int) bool {
		if pts[i].pos != pts[j].pos {
			return posLess(pts[i].pos, pts[j].pos)
		}
		return pts[i].op < pts[j].op
	})
	fmt.Fprintf(b, "   points reached (schedules that reached each):\n")
	for _, a := range pts {
		note := ""
		if _, ok := p.lines[a.pos]; !ok {
			note = "  (outside the package's points: a call of a function value, another package)"
		}
		fmt.Fprintf(b, "     %-32s %-18s %6d%s\n", c.rel(a.pos), a.op, a.schedules, note)
	}
	if len(views) == 0 {
		fmt.Fprintf(b, "   no conflicting pair: no object was accessed by two goroutines with a change between\n")
		return
	}
	fmt.Fprintf(b, "   conflicting pairs A / B (schedules with A's operation just before B's, with B's just before A's):\n")
	for _, v := range views {
		if v.same {
			fmt.Fprintf(b, "     %s %s, in two goroutines: %d\n", c.rel(v.a.pos), v.a.op, v.aFirst)
			continue
		}
		mark := ""
		if !v.bothOrders() {
			mark = "   <- one order only"
		}
		fmt.Fprintf(b, "     %s %s / %s %s: %d, %d%s\n", c.rel(v.a.pos), v.a.op, c.rel(v.b.pos), v.b.op, v.aFirst, v.bFirst, mark)
	}
}

// The JSON form of the report.
type jsonCovReport struct {
	Points   int          `json:"points"`
	Reached  int          `json:"reached"`
	Pairs    int          `json:"pairs"`
	Both     int          `json:"pairs_both_orders"`
	Packages []jsonCovPkg `json:"packages"`
}

type jsonCovPkg struct {
	Package string        `json:"package"`
	Points  int           `json:"points"`
	Reached int           `json:"reached"`
	Missed  []string      `json:"reached_by_no_test"`
	Tests   []jsonCovTest `json:"tests"`
}

type jsonCovTest struct {
	Test      string         `json:"test"`
	Schedules int            `json:"schedules"`
	Result    string         `json:"result,omitempty"`
	Recorded  bool           `json:"recorded"`
	Reached   int            `json:"reached"`
	Points    []jsonCovPoint `json:"points_reached"`
	Pairs     []jsonCovPair  `json:"pairs"`
}

type jsonCovPoint struct {
	Pos       string `json:"pos"`
	Op        string `json:"op"`
	Schedules int    `json:"schedules"`
	Listed    bool   `json:"listed"` // among the package's points
}

type jsonCovPair struct {
	A      string `json:"a"`
	B      string `json:"b"`
	AFirst int    `json:"a_first"`
	BFirst int    `json:"b_first"`
}

func (c *coverageReport) jsonReport() jsonCovReport {
	s := c.totals()
	out := jsonCovReport{Points: s.points, Reached: s.reached, Pairs: s.pairs, Both: s.both, Packages: []jsonCovPkg{}}
	for _, p := range c.pkgs {
		all := map[string]bool{}
		jp := jsonCovPkg{Package: p.path, Points: len(p.lines), Missed: []string{}, Tests: []jsonCovTest{}}
		for _, t := range p.tests {
			reached := p.reachedLines(t)
			for l := range reached {
				all[l] = true
			}
			jt := jsonCovTest{Test: t.name, Schedules: t.schedules, Result: t.result, Recorded: t.recorded, Reached: len(reached),
				Points: []jsonCovPoint{}, Pairs: []jsonCovPair{}}
			for _, a := range t.points {
				_, listed := p.lines[a.pos]
				jt.Points = append(jt.Points, jsonCovPoint{Pos: c.rel(a.pos), Op: a.op, Schedules: a.schedules, Listed: listed})
			}
			sort.Slice(jt.Points, func(i, j int) bool {
				if jt.Points[i].Pos != jt.Points[j].Pos {
					return posLess(jt.Points[i].Pos, jt.Points[j].Pos)
				}
				return jt.Points[i].Op < jt.Points[j].Op
			})
			for _, v := range t.pairViews() {
				jt.Pairs = append(jt.Pairs, jsonCovPair{A: c.rel(v.a.pos) + " " + v.a.op, B: c.rel(v.b.pos) + " " + v.b.op, AFirst: v.aFirst, BFirst: v.bFirst})
			}
			jp.Tests = append(jp.Tests, jt)
		}
		for l := range p.lines {
			if !all[l] {
				jp.Missed = append(jp.Missed, c.rel(l))
			}
		}
		sort.Slice(jp.Missed, func(i, j int) bool { return posLess(jp.Missed[i], jp.Missed[j]) })
		jp.Reached = len(all)
		out.Packages = append(out.Packages, jp)
	}
	return out
}
