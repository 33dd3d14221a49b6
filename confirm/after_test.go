package confirm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gosct/gosct/replay"
)

// TestPlanHoldsAfterTheLastStep: a goroutine that never runs again in the
// schedule (it sent, and its receiver ran on to the bug, while Go would
// have run the sender on) is held right after its last operation: there is
// no next operation to hold it before.
func TestPlanHoldsAfterTheLastStep(t *testing.T) {
	tr := &replay.Trace{
		Stacks: []string{"example.com/p.f\n\tp.go:4\n", "example.com/p.g\n\tp.go:10\n"},
		Decisions: []replay.Decision{
			{Kind: "goroutine", Choice: 0, G: 0, Enabled: []int{0, 1}},
			{Kind: "goroutine", Choice: 1, G: 0, Enabled: []int{0, 1}},
		},
		Steps: []replay.Step{
			{Decision: 1, G: 0, Op: "chan send", Pos: "p.go:4", Stack: 1},
			{Decision: 2, G: 1, Op: "read", Pos: "p.go:10", Stack: 2},
		},
	}
	hs := Plan(tr, false)
	if len(hs) != 1 {
		t.Fatalf("%d holds, want 1: %+v", len(hs), hs)
	}
	if h := hs[0]; h.At.G != 0 || h.Why != "preempted" || !h.At.After || h.At.Pos() != "p.go:4" {
		t.Errorf("hold %+v, want G0 preempted after p.go:4", h)
	}
}

// TestAfterPlacesPastTheStatement: the hold of a goroutine that never ran
// again goes on the line after its statement, and nowhere after one that
// ends its block (a return would leave the function without its
// terminating statement) or whose header did the operation (its end is
// after its body).
func TestAfterPlacesPastTheStatement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.go")
	src := "package p\n\nfunc f(ch chan int) int {\n\tch <- 1\n\tx := 2\n\tif <-ch > 0 {\n\t\tx++\n\t}\n\treturn x\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := newFiles()
	s, err := fs.after(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	if s.where != afterStmt || !s.ownLine || s.line != 5 || src[s.off:s.off+len("\tx := 2")] != "\tx := 2" {
		t.Errorf("after the send: %+v, want its own line before x := 2", s)
	}
	if s.code("hold()") != "hold()" {
		t.Errorf("code %q", s.code("hold()"))
	}
	if _, err := fs.after(path, 9); err == nil {
		t.Errorf("a hold was placed after the return")
	}
	if _, err := fs.after(path, 6); err == nil {
		t.Errorf("a hold was placed after the if whose condition received: after its body")
	}
}
