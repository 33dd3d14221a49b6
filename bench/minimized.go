package bench

import (
	"fmt"
	"io"
	"sort"

	"github.com/gosct/gosct/internal/wire"
)

// minimized reports how far the bugs' schedules were shrunk, and the
// causality check of every trace's steps.
func (rep *Report) minimized(w io.Writer) {
	type col struct {
		name     string
		from, to []wire.Size
		traces   int
		bad      int
	}
	var cols []*col
	all := &col{name: "all"}
	for _, s := range rep.Strategies {
		c := &col{name: s.Name}
		for _, r := range rep.List {
			if r.Strategy != s.Name {
				continue
			}
			c.traces += r.Traces
			c.bad += len(r.StepErrors)
			if r.Size != nil && r.Found {
				from := *r.Size
				if r.From != nil {
					from = *r.From
				}
				c.from = append(c.from, from)
				c.to = append(c.to, *r.Size)
			}
		}
		all.from = append(all.from, c.from...)
		all.to = append(all.to, c.to...)
		all.traces += c.traces
		all.bad += c.bad
		cols = append(cols, c)
	}
	if len(all.to) == 0 {
		return
	}
	fmt.Fprintf(w, "## Minimized schedules\n\n")
	fmt.Fprintf(w, "The first bug of every run that found one: its schedule as the strategy found it → as its trace holds it, shrunk "+
		"(`--minimize`, delta debugging over the schedule's deviations from the non-preemptive default, then preemption bounding "+
		"below the preemptions left; the same bug, same kind and place, at every step). Medians over the runs; a preemption is a "+
		"switch away from a goroutine that could have gone on. Every bug trace's steps were checked for causality "+
		"(`replay.CheckSteps`: a goroutine starts after its go statement, a lock is taken after its holder's unlock, a receive "+
		"after its send...).\n\n")
	rows := [][]string{}
	for _, c := range append(cols, all) {
		if len(c.to) == 0 && c.traces == 0 {
			continue
		}
		le2 := 0
		for _, s := range c.to {
			if s.Preemptions <= 2 {
				le2++
			}
		}
		rows = append(rows, []string{c.name, fmt.Sprint(len(c.to)),
			med(c.from, preemptions) + " → " + med(c.to, preemptions),
			med(c.from, steps) + " → " + med(c.to, steps),
			med(c.from, goroutines) + " → " + med(c.to, goroutines),
			fmt.Sprintf("%d / %d", le2, len(c.to)),
			fmt.Sprintf("%d / %d", c.bad, c.traces)})
	}
	table(w, []string{"strategy", "bugs", "preemptions (median)", "steps (median)", "goroutines (median)", "≤ 2 preemptions", "traces violating causality"}, rows)
	fmt.Fprintln(w)
}

func preemptions(s wire.Size) int { return s.Preemptions }
func steps(s wire.Size) int       { return s.Steps }
func goroutines(s wire.Size) int  { return s.Goroutines }

// med is the median of f over ss, "" for none.
func med(ss []wire.Size, f func(wire.Size) int) string {
	if len(ss) == 0 {
		return ""
	}
	v := make([]int, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	sort.Ints(v)
	n := len(v)
	if n%2 == 1 {
		return fmt.Sprint(v[n/2])
	}
	m := float64(v[n/2-1]+v[n/2]) / 2
	return fmt.Sprintf("%g", m)
}
