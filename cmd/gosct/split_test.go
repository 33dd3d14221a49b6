package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// runBinaryTree runs executions of a program with three binary select
// points (8 schedules) until the strategy ends or limit, and returns how
// many ran.
func runBinaryTree(s strategies.Strategy, limit int) int {
	n := 0
	for n < limit && s.NewExecution() {
		for i := 0; i < 3; i++ {
			s.Next(&strategies.Point{Kind: strategies.Case, Choices: []int{0, 1}})
		}
		n++
	}
	return n
}

func TestSplitStates(t *testing.T) {
	dir := t.TempDir()
	d := strategies.NewDFS(strategies.Options{})
	if got := runBinaryTree(d, 3); got != 3 {
		t.Fatalf("ran %d", got)
	}
	var buf bytes.Buffer
	if err := d.Save(&buf); err != nil {
		t.Fatal(err)
	}
	st := &wire.State{Package: "example.com/p", Test: "TestX", Strategy: "dfs", Seed: 1, Schedules: 3, Search: buf.Bytes()}
	if err := wire.WriteState(wire.StatePath(dir, st.Package, st.Test), st); err != nil {
		t.Fatal(err)
	}
	if err := splitStates(dir, 2, io.Discard); err != nil {
		t.Fatal(err)
	}
	rest := 0
	for _, part := range []string{dir + ".1", dir + ".2"} {
		p, err := wire.ReadState(wire.StatePath(part, st.Package, st.Test))
		if err != nil || p == nil {
			t.Fatalf("part %s: %v", part, err)
		}
		s := strategies.NewDFS(strategies.Options{})
		if err := s.Load(bytes.NewReader(p.Search)); err != nil {
			t.Fatal(err)
		}
		n := runBinaryTree(s, 100)
		if n == 0 {
			t.Errorf("part %s has no work", filepath.Base(part))
		}
		rest += n
	}
	if rest != 5 {
		t.Fatalf("the parts ran %d schedules, want the 5 the search had left", rest)
	}
}

func TestSplitRefuses(t *testing.T) {
	st := &wire.State{Strategy: "random", Seed: 1, Search: []byte(`{}`)}
	want := "a random search cannot be split (only dfs, pb, db and dpor): run the machines with different --seed values instead"
	if _, err := splitState(st, 2); err == nil || err.Error() != want {
		t.Errorf("random split: %v, want %q", err, want)
	}
	st = &wire.State{Strategy: "dfs", Running: true}
	if _, err := splitState(st, 2); err == nil || !strings.Contains(err.Error(), "resume it once") {
		t.Errorf("running split: %v", err)
	}
	code, _, errOut := gosct(t, "split", "--into", "2", t.TempDir())
	if code != exitError || !strings.Contains(errOut, "holds no saved search") {
		t.Errorf("empty dir: exit %d, %q", code, errOut)
	}
}
