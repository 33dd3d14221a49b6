package strategies

import (
	"math"
	"strings"
	"testing"
)

func TestParseDFSRB(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"rb1", "<I,pl,d,luby,0.75,1.5>"},
		{"I:5-10-20-50-100,pl,d,Lb,0.75,1.5", "<I,pl,d,luby,0.75,1.5>"},
		{"rb3", "<I,pl,ncs,fixed,1-r/5,1>"},
		{"rb10,order=random,budget=40", "<I,pl,d,fixed,0.75^r,1.5> budget=40 order=random"},
		{" L*0.25 , cs , ncs , R , 1-d/100 , 1.2 ", "<L*0.25,cs,ncs,random,1-d/100,1.2>"},
		{"20,pl,d,F,0.5,1", "<20,pl,d,fixed,0.5,1>"},
		{"I:3-7,pl,d,luby,1-r/10,1.1", "<I:3-7,pl,d,luby,1-r/10,1.1>"},
	} {
		cfg, err := ParseDFSRB(c.spec)
		if err != nil {
			t.Errorf("%q: %v", c.spec, err)
			continue
		}
		if got := cfg.String(); got != c.want {
			t.Errorf("%q: %s, want %s", c.spec, got, c.want)
		}
	}
	// Every preset is the paper's row, and its String parses back to it.
	for i, p := range DFSRBPresets {
		cfg, err := ParseDFSRB(p)
		if err != nil {
			t.Fatalf("preset rb%d: %v", i+1, err)
		}
		s := strings.Trim(cfg.String(), "<>")
		back, err := ParseDFSRB(s)
		if err != nil || back.String() != cfg.String() {
			t.Errorf("rb%d: %s parses back as %s (%v)", i+1, s, back, err)
		}
	}
	if d, _ := ParseDFSRB("rb1"); d.String() != DefaultDFSRB.String() {
		t.Errorf("rb1 is %s, the default %s", d, DefaultDFSRB)
	}
	for _, c := range []struct{ spec, msg string }{
		{"", "empty"},
		{"rb11", `unknown configuration "rb11"`},
		{"I,pl,d,luby,0.75", "6 elements"},
		{"0,pl,d,luby,0.75,1.5", `threshold "0"`},
		{"I:5-x,pl,d,luby,0.75,1.5", `threshold "I:5-x"`},
		{"L*2,pl,d,luby,0.75,1.5", "L*f wants a factor"},
		{"I,xx,d,luby,0.75,1.5", `threshold mode "xx"`},
		{"I,pl,no,luby,0.75,1.5", `threshold reduction "no"`},
		{"I,pl,d,walsh,0.75,1.5", `jump strategy "walsh"`},
		{"I,pl,d,luby,1.5,1.5", `ratio "1.5"`},
		{"I,pl,d,luby,1-d/0,1.5", "1-d/C wants C > 0"},
		{"I,pl,d,luby,2^r,1.5", "C^r wants C in (0, 1]"},
		{"I,pl,d,luby,0.75,0", "switch coefficient"},
		{"rb1,budget=0", "budget=0"},
		{"rb1,order=up", "order=up"},
		{"rb1,depth=3", `unknown option "depth"`},
		{"budget=3,rb1", "comes after the options"},
		{"portfolio", "takes no options"},
	} {
		_, err := ParseDFSRB(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want one saying %q", c.spec, err, c.msg)
		}
	}
	if CheckDFSRB("portfolio") != nil || CheckDFSRB("portfolio,budget=3") == nil {
		t.Error("CheckDFSRB does not tell the portfolio from a bad spec")
	}
}

// path builds the frames of a path from its choices: 's' a switch, '.' the
// goroutine went on.
func rbPath(choices string) []rbFrame {
	var out []rbFrame
	for _, c := range choices {
		f := rbFrame{n: 2, curRank: 0}
		prev := rbFrame{}
		if len(out) > 0 {
			prev = out[len(out)-1]
		}
		f.switched = c == 's'
		if f.switched {
			f.rank, f.switches, f.stays, f.run = 1, prev.switches+1, prev.stays, 0
		} else {
			f.switches, f.stays, f.run = prev.switches, prev.stays+1, prev.run+1
		}
		out = append(out, f)
	}
	return out
}

// Each ratio form, the switch coefficient, and the depth, threshold and
// reduction of each mode, on the paper's definitions (Figs. 2 and 3).
func TestDFSRBFormulas(t *testing.T) {
	mk := func(spec string) *DFSRB {
		t.Helper()
		c, err := ParseDFSRB(spec)
		if err != nil {
			t.Fatal(err)
		}
		return NewDFSRBConfig(Options{}, c)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	p := rbPath("s..s...") // 7 points, 2 switches, 5 stays, 3 since the last switch
	for _, c := range []struct {
		spec      string
		ratio     float64
		depth, th int
	}{
		{"10,pl,d,F,0.75,1", 0.75, 7, 10},
		{"10,pl,d,F,1-d/20,1", 1 - 7.0/20, 7, 10},
		{"10,cs,d,F,1-d/20,1", 1 - 2.0/20, 2, 10}, // d follows thm
		{"10,pl,d,F,1-r/5,1", 1 - 3.0/5, 7, 10},
		{"10,pl,d,F,1-r/2,1", -0.5, 7, 10}, // r >= C: always backtrack
		{"10,pl,d,F,0.5^r,1", 0.125, 7, 10},
		{"10,pl,ncs,F,0.75,1", 0.75, 7, 5}, // 10 - 5 stays
		{"10,cs,ncs,F,0.75,1", 0.75, 2, 5},
	} {
		s := mk(c.spec)
		if r := s.ratio(p); !near(r, c.ratio) {
			t.Errorf("%s: ratio %v, want %v", c.spec, r, c.ratio)
		}
		if d := s.depth(p); d != c.depth {
			t.Errorf("%s: depth %d, want %d", c.spec, d, c.depth)
		}
		if th := s.threshold(p); th != c.th {
			t.Errorf("%s: threshold %d, want %d", c.spec, th, c.th)
		}
	}
	// rtc multiplies the ratio right after a switch only.
	s := mk("10,pl,d,F,0.75,1.5")
	if r := s.ratio(rbPath("..s")); !near(r, 1.125) {
		t.Errorf("after a switch: ratio %v, want 1.125", r)
	}
	if r := s.ratio(rbPath("s.")); !near(r, 0.75) {
		t.Errorf("after a stay: ratio %v, want 0.75", r)
	}
	// 0.5^r right after a switch: r = 0, ratio 1, times rtc.
	if r := mk("10,pl,d,F,0.5^r,1.2").ratio(rbPath(".s")); !near(r, 1.2) {
		t.Errorf("0.5^r after a switch: %v, want 1.2", r)
	}
}

// checkRBPrefixes explores p with s and checks, on every execution's
// systematic part (its stack), that each point was expanded only where the
// configuration allows it: ratio 0 prunes every point at or below the
// threshold, so each frame's path must be above it. It returns the
// deepest stack in depth and in length.
func checkRBPrefixes(t *testing.T, s *DFSRB, p *prog, n int) (maxDepth, maxLen int) {
	t.Helper()
	for i := 0; i < n && s.NewExecution(); i++ {
		p.run(s, 10000)
		for k := range s.stack {
			path := s.stack[:k]
			if d, th := s.depth(path), s.threshold(path); d >= th {
				t.Fatalf("%s: point %d of %v expanded at depth %d, threshold %d", s.cfg, k, s.stack, d, th)
			}
		}
		maxDepth = max(maxDepth, s.depth(s.stack))
		maxLen = max(maxLen, len(s.stack))
	}
	return
}

// thm = cs: the depth is the number of switches, so with ratio 0 the
// expanded prefixes have at most threshold switches however long they are;
// thr = ncs: points where the goroutine went on lower the threshold.
func TestDFSRBSwitchModes(t *testing.T) {
	mk := func(spec string) *DFSRB {
		c, err := ParseDFSRB(spec)
		if err != nil {
			t.Fatal(err)
		}
		c.Budget = 100000
		return NewDFSRBConfig(Options{Seed: 1}, c)
	}
	d, l := checkRBPrefixes(t, mk("2,cs,d,F,0,1"), indep(2, 6), 3000)
	if d != 2 || l <= 4 {
		t.Errorf("cs threshold 2: deepest %d switches, longest %d points; want 2 switches on paths longer than 4", d, l)
	}
	d, l = checkRBPrefixes(t, mk("4,pl,d,F,0,1"), indep(3, 3), 3000)
	if d != 4 || l != 4 {
		t.Errorf("pl threshold 4: deepest %d, longest %d; want 4", d, l)
	}
	// ncs: the threshold 4 minus the stays on the path; a path of stays
	// only is expanded to length 2 (at 2 points, 2 >= 4-2).
	s := mk("4,pl,ncs,F,0,1")
	_, l = checkRBPrefixes(t, s, indep(3, 3), 3000)
	if l != 4 {
		t.Errorf("pl ncs threshold 4: longest %d, want 4 (a path of switches)", l)
	}
}

// The i-th jump of the Luby strategy pops luby(i) transitions: the pruned
// one and luby(i)-1 levels of the stack, unless the threshold stops it.
// SkipExecution makes every execution pruned below its prefix, so that
// with ratio 1 (nothing else pruned) each backtrack is one jump.
func TestDFSRBLubyJumps(t *testing.T) {
	for _, c := range []struct {
		jump string
		want func(i int) int
	}{
		{"luby", luby},
		{"fixed", func(int) int { return 1 }},
	} {
		cfg, _ := ParseDFSRB("1,pl,d," + c.jump + ",1,1")
		cfg.Budget = 1 << 20
		s := NewDFSRBConfig(Options{Seed: 1}, cfg)
		p := indep(2, 40)
		s.NewExecution()
		p.run(s, 10000)
		var lens []int
		for i := 1; i <= 20; i++ {
			before := len(s.stack)
			s.SkipExecution()
			if !s.NewExecution() {
				t.Fatalf("%s: search over after %d jumps", c.jump, i)
			}
			if s.jumps != i || s.jumpLen != c.want(i) {
				t.Fatalf("%s: jump %d (index %d) of length %d, want %d", c.jump, i, s.jumps, s.jumpLen, c.want(i))
			}
			// The jump popped jumpLen-1 levels; then, if the level it
			// ended at had taken its last child, normal returns.
			if popped := before - len(s.stack); popped < c.want(i)-1 {
				t.Fatalf("%s: jump %d popped %d levels of the stack, want at least %d", c.jump, i, popped, c.want(i)-1)
			}
			lens = append(lens, s.jumpLen)
			p.run(s, 10000)
		}
		t.Logf("%s: jump lengths %v", c.jump, lens)
	}
	// A jump stops at the threshold.
	cfg, _ := ParseDFSRB("30,pl,d,luby,1,1")
	s := NewDFSRBConfig(Options{Seed: 1}, cfg)
	p := indep(2, 40)
	s.NewExecution()
	p.run(s, 10000)
	for i := 1; i <= 40; i++ {
		s.SkipExecution()
		s.NewExecution()
		if len(s.stack) < 30 {
			t.Fatalf("jump %d went above the threshold: %d levels left", i, len(s.stack))
		}
		p.run(s, 10000)
	}
}

// L*f: the first execution is explored to its end with nothing pruned, and
// the threshold is f times its depth.
func TestDFSRBFirstPathThreshold(t *testing.T) {
	cfg, _ := ParseDFSRB("L*0.5,pl,d,F,0,1")
	s := NewDFSRBConfig(Options{Seed: 1}, cfg)
	p := indep(2, 6)
	s.NewExecution()
	p.run(s, 10000)
	l := len(s.stack)
	if l < 6 || !strings.HasPrefix(s.Status(), "first path") {
		t.Fatalf("first path of %d points, status %q", l, s.Status())
	}
	s.NewExecution()
	if th := s.cfg.Thresholds[0]; th != (l+1)/2 {
		t.Fatalf("threshold %d after a first path of %d", th, l)
	}
	if !strings.Contains(s.Status(), "<L*0.5,pl,d,fixed,0,1>") {
		t.Errorf("status %q", s.Status())
	}
	// The threshold is kept across a save.
	checkResume(t, func() Strategy { return NewDFSRBConfig(Options{Seed: 2}, cfg) }, func() *prog { return indep(2, 4) }, 60, 0, 1, 2, 30)
}

// The portfolio: its members in turn, each its own configuration; it ends
// when one of them has explored the whole tree, and resumes.
func TestDFSRBPortfolio(t *testing.T) {
	mk := func() Strategy { s, _ := New("dfsrb", Options{Seed: 3, DFSRB: "portfolio"}); return s }
	pf := mk().(*DFSRBPortfolio)
	outs := explore(t, indep(2, 2), pf, 10000)
	if !pf.Exhausted() || !strings.HasPrefix(pf.Status(), "exhausted:") {
		t.Fatalf("%d executions: %s", len(outs), pf.Status())
	}
	for _, m := range DFSRBPortfolioMembers {
		if !strings.Contains(pf.Status(), m+": ") {
			t.Errorf("status does not list %s: %s", m, pf.Status())
		}
	}
	if st := pf.p.members[4].s.(*DFSRB).cfg; !st.RandomOrder || st.Jump != JumpLuby {
		t.Errorf("fifth member %s", st)
	}
	found := 0
	for seed := int64(0); seed < 10; seed++ {
		s, _ := New("dfsrb", Options{Seed: seed, DFSRB: "portfolio"})
		if firstBug(explore(t, reorder(3), s, 3000)) > 0 {
			found++
		}
	}
	if found < 9 {
		t.Errorf("the portfolio found reorder_3 with %d seeds of 10", found)
	}
	checkResume(t, mk, func() *prog { return indep(3, 2) }, 120, 0, 1, 5, 6, 7, 50)
}

// A configuration from Options; a bad one is the default, said in Status.
func TestDFSRBOptions(t *testing.T) {
	s := NewDFSRB(Options{DFSRB: "rb4"})
	if s.cfg.Jump != JumpRandom || s.cfg.Ratio != RatioRun || !strings.Contains(s.Status(), "<I,pl,d,random,1-r/5,1.1>") {
		t.Errorf("rb4: %+v, %q", s.cfg, s.Status())
	}
	s = NewDFSRB(Options{DFSRB: "nonsense"})
	if s.cfg.String() != DefaultDFSRB.String() || !strings.Contains(s.Status(), `"nonsense"`) {
		t.Errorf("bad spec: %s, %q", s.cfg, s.Status())
	}
}
