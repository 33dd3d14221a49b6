package confirm

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/replay"
)

// TestHelperBuildsForGo118: the helper file is added to the user's
// package, whose go.mod may say go 1.18 (tidwall/buntdb does): it must
// type-check at that language version, every piece of it.
func TestHelperBuildsForGo118(t *testing.T) {
	sites := map[int][]action{
		1: {{hold: true, gate: 1, callers: []Frame{{File: "/m/a.go", Line: 3}}, what: "G1 preempted"}},
		2: {{hold: false, gate: 1, what: "G0 ends G1's hold"}},
	}
	p := helperParams{how: Targeted, sleep: 20 * time.Millisecond, timer: 50 * time.Millisecond, maxWait: time.Second, yields: 10, leaks: []string{"/m/a.go:3"}, grace: time.Second}
	src := helper("p", sites, p, true)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gosct_confirm_test.go", src, 0)
	if err != nil {
		t.Fatalf("the helper does not parse: %v\n%s", err, src)
	}
	conf := types.Config{GoVersion: "go1.18", Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("the helper does not build at go 1.18: %v", err)
	}
}

// TestUnrecordedReason: a trace without the goroutines that could run at
// each decision is blamed on an older gosct only when the bug replayed
// (not uncontrolled): a bug whose detailed re-run did not come back keeps
// its first run's trace, written by this gosct (tidwall/buntdb).
func TestUnrecordedReason(t *testing.T) {
	tr := &replay.Trace{Uncontrolled: true}
	if r := unrecordedReason(tr); strings.Contains(r, "older gosct") || !strings.Contains(r, "--per-process") {
		t.Errorf("uncontrolled trace: %q", r)
	}
	tr.Uncontrolled = false
	if r := unrecordedReason(tr); !strings.Contains(r, "older gosct") {
		t.Errorf("replayed trace: %q", r)
	}
}
