package runtime

import (
	"strings"

	"github.com/gosct/gosct/strategies"
)

// interleaving renders the schedule of a detailed execution as a table:
// one column per goroutine, named by where it was created, one row per
// step, the operation the chosen goroutine performed in its column (a
// timer fired by the Clock choice in a last column, "clock"). Only the last
// maxRows steps are shown: that is where a bug's interleaving is.
//
//go:norace
func interleaving(e *execution, maxRows int) string {
	if len(e.ops) == 0 || len(e.gs) == 0 {
		return ""
	}
	type row struct {
		step int
		g    int
		op   string
	}
	var rows []row
	n := 0
	for i, d := range e.trail {
		if d.kind != strategies.Goroutine || i >= len(e.ops) {
			continue
		}
		n++
		rows = append(rows, row{n, int(d.choice), e.ops[i].String()})
	}
	skipped := 0
	if len(rows) > maxRows {
		skipped = len(rows) - maxRows
		rows = rows[skipped:]
	}
	cols := len(e.gs)
	if cols > 8 {
		cols = 8 // wider tables do not read; later goroutines share the last column
	}
	clockCol := -1
	for _, r := range rows {
		if r.g == strategies.Clock {
			clockCol = cols
		}
	}
	ncols := cols
	if clockCol >= 0 {
		ncols++
	}
	head := make([]string, ncols)
	width := make([]int, ncols)
	for i := 0; i < cols; i++ {
		head[i] = "G" + itoa(i) + " " + e.gs[i].creationSite()
		if i == cols-1 && len(e.gs) > cols {
			head[i] = "G" + itoa(i) + "+"
		}
		width[i] = len(head[i])
	}
	if clockCol >= 0 {
		head[clockCol] = "clock"
		width[clockCol] = len("clock")
	}
	cell := func(r row) int {
		if r.g == strategies.Clock {
			return clockCol
		}
		if r.g >= cols {
			return cols - 1
		}
		return r.g
	}
	for _, r := range rows {
		op := r.op
		if r.g >= cols {
			op = "G" + itoa(r.g) + ": " + op
		}
		if c := cell(r); len(op) > width[c] {
			width[c] = len(op)
		}
	}
	var b strings.Builder
	b.WriteString("interleaving")
	if skipped > 0 {
		b.WriteString(" (last " + itoa(len(rows)) + " steps of " + itoa(len(rows)+skipped) + ")")
	}
	b.WriteString(":\n")
	line := func(step string, cells []string) {
		b.WriteString("    " + pad(step, 6))
		for i, c := range cells {
			b.WriteString(" | " + pad(c, width[i]))
		}
		b.WriteString("\n")
	}
	line("step", head)
	for _, r := range rows {
		cells := make([]string, ncols)
		op := r.op
		if r.g >= cols {
			op = "G" + itoa(r.g) + ": " + op
		}
		cells[cell(r)] = op
		line(itoa(r.step), cells)
	}
	return b.String()
}

//go:norace
func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}
