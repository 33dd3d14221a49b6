package strategies

import (
	"bytes"
	"sort"
	"strings"
	"testing"
)

func TestSplitCoversTheRestOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every part of several split searches to their end (the whole suite runs it)")
	}
	makers := map[string]func() Strategy{
		"dfs": func() Strategy { return NewDFS(Options{}) },
		"pb":  func() Strategy { return NewPB(Options{Bound: 2}) },
		"db":  func() Strategy { return NewDB(Options{Bound: 3}) },
	}
	progs := map[string]func() *prog{"fig2": fig2, "lock": lockProg, "reorder4": func() *prog { return reorder(4) }}
	for name, mk := range makers {
		for pname, p := range progs {
			full := explore(t, p(), mk(), 1000000)
			want := schedules(full)
			for _, cut := range []int{1, 5, len(full) / 2, len(full) - 1} {
				for _, n := range []int{1, 3} {
					first := mk()
					got := schedules(explore(t, p(), first, cut))
					parts, err := first.(Splitter).Split(n)
					if err != nil {
						t.Fatalf("%s %s: %v", name, pname, err)
					}
					for _, b := range parts {
						s := mk()
						if err := s.(Saver).Load(bytes.NewReader(b)); err != nil {
							t.Fatalf("%s %s: loading a part: %v", name, pname, err)
						}
						got = append(got, schedules(explore(t, p(), s, 1000000))...)
						if !s.(Status).Exhausted() {
							t.Fatalf("%s %s: part not exhausted", name, pname)
						}
					}
					sort.Strings(got)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("%s %s cut %d into %d: %d schedules, want the %d of one search", name, pname, cut, n, len(got), len(want))
					}
				}
			}
		}
	}
}

func TestSplitRefusesMidSchedule(t *testing.T) {
	d := NewDFS(Options{})
	if _, err := d.Split(2); err == nil {
		t.Error("split a search that has not started")
	}
	explore(t, fig1(), d, 3)
	d.NewExecution() // prepared, not run: a per-process save point
	if _, err := d.Split(2); err == nil {
		t.Error("split a search between NewExecution and its execution")
	}
}

func schedules(outs []outcome) []string {
	var s []string
	for _, o := range outs {
		s = append(s, o.schedule)
	}
	sort.Strings(s)
	return s
}

func TestSplitDPORCoversTheRest(t *testing.T) {
	makers := map[string]func() Strategy{
		"dpor":         func() Strategy { return NewDPOR(Options{}) },
		"dpor bound 1": func() Strategy { return NewDPOR(Options{Bound: 1}) },
	}
	progs := map[string]func() *prog{"fig2": fig2, "lock": lockProg, "writers4": func() *prog { return writers(4) },
		"select": func() *prog {
			return &prog{nvars: 1, threads: [][]op{{create("go", 1), {name: "select", cases: 3, acc: []Access{wr(0)}}}, {set("x", 0, 1), set("x", 0, 2)}}}
		}}
	for name, mk := range makers {
		for pname, p := range progs {
			mkp := func() *prog { q := p(); q.goOn = true; return q }
			full := explore(t, mkp(), mk(), 1000000)
			want := classes(full)
			for _, cut := range []int{1, 2, len(full) / 2, len(full) - 1} {
				for _, n := range []int{1, 3} {
					first := mk()
					got := classes(explore(t, mkp(), first, cut))
					parts, err := first.(Splitter).Split(n)
					if err != nil {
						t.Fatalf("%s %s: %v", name, pname, err)
					}
					runs := 0
					for _, b := range parts {
						s := mk()
						if err := s.(Saver).Load(bytes.NewReader(b)); err != nil {
							t.Fatalf("%s %s: loading a part: %v", name, pname, err)
						}
						outs := explore(t, mkp(), s, 1000000)
						runs += len(outs)
						for k, c := range classes(outs) {
							got[k] += c
						}
						if !s.(Status).Exhausted() {
							t.Fatalf("%s %s: part not exhausted", name, pname)
						}
					}
					for k := range want {
						if got[k] == 0 {
							t.Fatalf("%s %s cut %d into %d: trace %s not explored", name, pname, cut, n, k)
						}
					}
					if len(got) != len(want) {
						t.Fatalf("%s %s cut %d into %d: %d traces, want %d", name, pname, cut, n, len(got), len(want))
					}
				}
			}
		}
	}
}
