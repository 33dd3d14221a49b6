package confirm

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/replay"
)

// abbaTrace is the trace gosct wrote for testdata/abba's deadlock (two
// opposite transfers, each locking its source, then its destination),
// with its package moved to dir.
func abbaTrace(t *testing.T, dir string) (*replay.Trace, Layout) {
	t.Helper()
	return traceAt(t, "abba", dir)
}

func TestPlanFindsThePreemption(t *testing.T) {
	tr, _ := abbaTrace(t, "testdata/abba")
	hs := Plan(tr, false)
	if len(hs) != 1 {
		t.Fatalf("%d holds, want 1: %+v", len(hs), hs)
	}
	h := hs[0]
	if h.Why != "preempted" || h.At.G != 0 || h.At.Pos() != "abba.go:35" || h.Until == nil || h.Until.G != 1 || h.Until.Pos() != "abba.go:35" {
		t.Errorf("hold %+v (until %+v), want G0 preempted at abba.go:35 until G1 reaches abba.go:35", h, h.Until)
	}
	if len(h.At.Stack) < 2 || h.At.Stack[1].Pos() != "abba_test.go:9" {
		t.Errorf("G0's stack %v, want its caller at abba_test.go:9", h.At.Stack)
	}
}

// TestPatchKeepsLineNumbers checks the two renderings of one change: the
// user's patch inserts a line, the overlay's copy gives the lines after it
// their own numbers back.
func TestPatchKeepsLineNumbers(t *testing.T) {
	tr, lay := abbaTrace(t, "testdata/abba")
	c := &confirmer{opts: Options{Layout: lay}, t: tr, fs: newFiles()}
	c.opts.defaults()
	for _, how := range []How{Sleep, Targeted} {
		try := c.build(Plan(tr, false), how)
		if try.Holds != 1 || len(try.delays) != 1 || !strings.HasSuffix(try.delays[0], "abba.go:35") {
			t.Fatalf("%s: holds %d, delays %v, notes %v", how, try.Holds, try.delays, try.notes)
		}
		patch, err := try.ps.patch(lay.Root)
		if err != nil {
			t.Fatal(err)
		}
		want := "+\tgosctConfirm(1) // gosct confirm: hold G0 here until G1 reaches abba.go:35\n \tto.mu.Lock()"
		if how == Sleep {
			want = "+\ttime.Sleep(20 * time.Millisecond) // gosct confirm: G0 preempted here\n \tto.mu.Lock()"
		}
		if !strings.Contains(patch, want) || !strings.Contains(patch, "--- a/abba.go\n+++ b/abba.go\n") {
			t.Errorf("%s: the patch lacks %q:\n%s", how, want, patch)
		}
		dir := t.TempDir()
		ov, err := try.ps.overlay(dir)
		if err != nil {
			t.Fatal(err)
		}
		var o struct{ Replace map[string]string }
		data, _ := os.ReadFile(ov)
		if err := json.Unmarshal(data, &o); err != nil {
			t.Fatal(err)
		}
		copyPath := o.Replace[filepath.Join(lay.Dir, "abba.go")]
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, copyPath, nil, 0)
		if err != nil {
			t.Fatalf("%s: the overlay's copy does not parse: %v", how, err)
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Lock" {
					if p := fset.Position(call.Pos()); p.Line == 35 {
						found = true
					}
				}
			}
			return true
		})
		if !found {
			t.Errorf("%s: no Lock call at line 35 of the overlay's copy: the inserted line moved the user's lines", how)
		}
	}
}

func TestJudge(t *testing.T) {
	dead := expect{kind: "deadlock", at: []string{"/abba.go:35"}}
	race := expect{kind: "race", at: []string{"/q.go:42", "/q.go:33"}}
	fail := expect{kind: "failure", at: []string{"q_test.go:13: "}}
	pan := expect{kind: "panic", text: "close of closed channel", at: []string{"/q.go:20"}}
	for _, c := range []struct {
		x    expect
		out  string
		ok   bool
		same bool
	}{
		{dead, "panic: test timed out after 3s\n\ngoroutine 7 [sync.Mutex.Lock]:\nx.Transfer()\n\t/m/abba.go:35 +0x7c\n", false, true},
		{dead, "panic: test timed out after 3s\n\ngoroutine 7 [sync.Mutex.Lock]:\nx.Transfer()\n\t/m/abba.go:36 +0x7c\n", false, false},
		{dead, "--- FAIL: TestX\n    abba_test.go:12: total = 3\n", false, false},
		{race, "WARNING: DATA RACE\nWrite at 0x1 by goroutine 8:\n  q.Put()\n      /m/q.go:42 +0x1\nPrevious read at 0x1 by goroutine 7:\n  q.Close()\n      /m/q.go:33 +0x2\n==================\n", false, true},
		{race, "WARNING: DATA RACE\n      /m/q.go:42 +0x1\n      /m/q.go:34 +0x2\n==================\n", false, false},
		{fail, "=== RUN   TestX\n    q_test.go:13: got 1, want 2\n--- FAIL: TestX (0.00s)\n", false, true},
		{fail, "=== RUN   TestX\n    q_test.go:14: got 1, want 2\n--- FAIL: TestX (0.00s)\n", false, false},
		{fail, "=== RUN   TestX\n--- PASS: TestX (0.00s)\n", true, false},
		{pan, "panic: close of closed channel\n\ngoroutine 8 [running]:\nq.Stop()\n\t/m/q.go:20 +0x1\n", false, true},
		{pan, "panic: send on closed channel\n\ngoroutine 8 [running]:\nq.Stop()\n\t/m/q.go:20 +0x1\n", false, false},
	} {
		v := c.x.judge(c.out, c.ok)
		if v.same != c.same {
			t.Errorf("%s on %q: same %v, want %v", c.x.kind, c.out, v.same, c.same)
		}
		if !v.same && !c.ok && v.other == "" {
			t.Errorf("%s on %q: a failed run with no description", c.x.kind, c.out)
		}
	}
}

// TestConfirm runs go test on testdata/abba with the hold placed: the
// deadlock shows; on the fixed twin, the same trace never confirms.
func TestConfirm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	opts := Options{Runs: 3, Timeout: 2 * time.Second, Hows: []How{Sleep}}
	tr, lay := abbaTrace(t, "testdata/abba")
	opts.Layout = lay
	r, err := Confirm(context.Background(), tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Confirmed || r.Same == 0 || r.Unprompted || len(r.Delays) != 1 {
		t.Fatalf("abba: %s (tried %v)", r.Summary(nil), r.Tried)
	}
	if s := r.Summary(filepath.Base); !strings.HasPrefix(s, "confirmed under go test: ") || !strings.HasSuffix(s, "with this delay (sleep): abba.go:35") {
		t.Errorf("summary %q", s)
	}
	tr, lay = abbaTrace(t, "testdata/abbafixed")
	opts.Layout = lay
	r, err = Confirm(context.Background(), tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || !strings.HasPrefix(r.Summary(nil), "not confirmed") {
		t.Errorf("the fixed twin: %s", r.Summary(nil))
	}
	if len(r.Tried) == 0 || r.Tried[0].Runs != 3 || r.Tried[0].Passed != 3 {
		t.Errorf("the fixed twin: tried %v, want 3 runs that passed", r.Tried)
	}
}

// TestSearchKeepsWhatItFinished: a run stopped (gosct test under a bound
// on the whole run) while a confirmation tries its ways keeps the ways it
// finished: one that showed the bug in 3 of 20 runs stands, marked as
// interrupted; the way cut short counts no runs; with nothing shown, the
// error is the context's.
func TestSearchKeepsWhatItFinished(t *testing.T) {
	plans := [][]Hold{{{Why: "preempted"}}}
	hows := []How{Sleep, Targeted, Handshake}
	ctx, cancel := context.WithCancel(context.Background())
	var asked []How
	attempt := func(ctx context.Context, _ []Hold, how How) *try {
		asked = append(asked, how)
		if how == Targeted {
			cancel() // stopped while its runs go on: none finish
			return &try{Attempt: Attempt{How: how}}
		}
		return &try{Attempt: Attempt{How: how, Holds: 1, Same: 3, Runs: 20, Passed: 17}}
	}
	best, tried, interrupted, err := search(ctx, plans, hows, false, attempt)
	if err != nil || best == nil || best.How != Sleep || best.Same != 3 || !interrupted {
		t.Fatalf("best %+v, interrupted %v, err %v; want sleep's 3 of 20, interrupted", best, interrupted, err)
	}
	if len(tried) != 1 || len(asked) != 2 {
		t.Errorf("tried %v (asked %v): want sleep counted, targeted cut short and not counted, handshake not started", tried, asked)
	}

	ctx, cancel = context.WithCancel(context.Background())
	none := func(ctx context.Context, _ []Hold, how How) *try {
		cancel()
		return &try{Attempt: Attempt{How: how, Holds: 1, Runs: 20, Passed: 20}}
	}
	best, _, _, err = search(ctx, plans, hows, false, none)
	if best != nil || err != context.Canceled {
		t.Errorf("nothing shown, then stopped: best %+v, err %v; want the context's error", best, err)
	}

	// Not stopped: a way that shows it in half the runs ends the search.
	all := func(ctx context.Context, _ []Hold, how How) *try {
		return &try{Attempt: Attempt{How: how, Holds: 1, Same: 10, Runs: 20}}
	}
	best, tried, interrupted, err = search(context.Background(), plans, hows, false, all)
	if err != nil || interrupted || best == nil || len(tried) != 1 {
		t.Errorf("best %+v, tried %v, interrupted %v, err %v", best, tried, interrupted, err)
	}
}

// TestSearchWeakGoesOn: past a long schedule's last holds, a plan whose
// best shows the bug in few runs does not end the search, and a way tried
// again with a longer bound lists the first try too.
func TestSearchWeakGoesOn(t *testing.T) {
	plans := [][]Hold{{{Why: "preempted", Decision: 9}}, {{Why: "preempted", Decision: 1}, {Why: "preempted", Decision: 9}}}
	hows := []How{Sleep}
	attempt := func(ctx context.Context, holds []Hold, how How) *try {
		if len(holds) == 1 {
			return &try{Attempt: Attempt{How: how, Holds: 1, Same: 2, Runs: 20}, holds: holds}
		}
		short := Attempt{How: how, Holds: 2, Runs: 20}
		return &try{Attempt: Attempt{How: how, Holds: 2, Same: 15, Runs: 20, Timeout: goTestTimeout}, holds: holds, retried: &short}
	}
	best, tried, _, err := search(context.Background(), plans, hows, false, attempt)
	if err != nil || best == nil || len(best.holds) != 1 || len(tried) != 1 {
		t.Errorf("weak stops: best %+v, tried %v, err %v; want the first plan's 2 of 20", best, tried, err)
	}
	best, tried, _, err = search(context.Background(), plans, hows, true, attempt)
	if err != nil || best == nil || len(best.holds) != 2 || best.Same != 15 || len(tried) != 3 {
		t.Errorf("weak goes on: best %+v, tried %v, err %v; want the second plan's 15 of 20 after 3 attempts (its short one listed)", best, tried, err)
	}
}
