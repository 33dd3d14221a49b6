package strategies

import (
	"bytes"
	"strings"
	"testing"
)

func TestSaveResume(t *testing.T) {
	makers := map[string]func() Strategy{
		"dfs":          func() Strategy { return NewDFS(Options{}) },
		"pb":           func() Strategy { return NewPB(Options{Bound: 2}) },
		"db":           func() Strategy { return NewDB(Options{Bound: 2}) },
		"dpor":         func() Strategy { return NewDPOR(Options{}) },
		"dpor bound 1": func() Strategy { return NewDPOR(Options{Bound: 1}) },
	}
	for name, mk := range makers {
		full := explore(t, fig2(), mk(), 1000000)
		for _, cut := range []int{0, 1, 7, len(full) / 2, len(full) - 1, len(full)} {
			first := mk()
			part := explore(t, fig2(), first, cut)
			var buf bytes.Buffer
			if err := first.(Saver).Save(&buf); err != nil {
				t.Fatal(err)
			}
			second := mk()
			if err := second.(Saver).Load(bytes.NewReader(buf.Bytes())); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rest := explore(t, fig2(), second, 1000000)
			got := append(part, rest...)
			if len(got) != len(full) {
				t.Fatalf("%s cut at %d: %d executions, want %d", name, cut, len(got), len(full))
			}
			for i := range got {
				if got[i].schedule != full[i].schedule {
					t.Fatalf("%s cut at %d: schedule %d is %s, want %s", name, cut, i, got[i].schedule, full[i].schedule)
				}
			}
			if !second.(Status).Exhausted() {
				t.Fatalf("%s: resumed search not exhausted", name)
			}
		}
	}
}

func TestLoadRejectsBadInput(t *testing.T) {
	var buf bytes.Buffer
	d := NewDFS(Options{})
	explore(t, fig1(), d, 3)
	if err := d.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := NewDB(Options{}).Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Error("db loaded a dfs frontier")
	}
	bad := strings.Replace(buf.String(), `"n":3`, `"n":0`, 1)
	if err := NewDFS(Options{}).Load(strings.NewReader(bad)); err == nil {
		t.Errorf("accepted a level with no children: %s", bad)
	}
	if err := NewDFS(Options{}).Load(strings.NewReader("{")); err == nil {
		t.Error("accepted truncated input")
	}
}
