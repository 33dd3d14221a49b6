package replay

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Table renders steps as the interleaving table of a bug report: one
// column per goroutine (named by gs: "G1 worker.go:31"), one row per step,
// in the order they happened, the step's decision number on the first row
// of each decision. Only the last maxRows steps are shown (0: all): that
// is where a bug's interleaving is. More than maxCols goroutines share the
// last column, each cell then naming its goroutine.
func Table(steps []Step, gs []Goroutine, maxRows int) string {
	if len(steps) == 0 {
		return ""
	}
	const maxCols = 8
	ncols := 0
	for _, g := range gs {
		ncols = max(ncols, g.ID+1)
	}
	for _, s := range steps {
		ncols = max(ncols, s.G+1, s.Child+1)
	}
	ncols = max(ncols, 1)
	shared := ncols > maxCols
	if shared {
		ncols = maxCols
	}
	created := map[int]string{}
	for _, g := range gs {
		created[g.ID] = g.Created
	}
	rows := steps
	skipped := 0
	if maxRows > 0 && len(rows) > maxRows {
		skipped = len(rows) - maxRows
		rows = rows[skipped:]
	}
	col := func(g int) int { return min(max(g, 0), ncols-1) }
	head := make([]string, ncols)
	width := make([]int, ncols)
	for i := range head {
		head[i] = "G" + strconv.Itoa(i)
		if c := created[i]; c != "" {
			head[i] += " " + c
		}
		if shared && i == ncols-1 {
			head[i] = "G" + strconv.Itoa(i) + "+"
		}
		width[i] = utf8.RuneCountInString(head[i])
	}
	cells := make([]string, len(rows))
	for i, s := range rows {
		c := StepText(s)
		if s.G < 0 {
			c = "(clock) " + c
		} else if shared && s.G >= ncols-1 {
			c = "G" + strconv.Itoa(s.G) + ": " + c
		}
		cells[i] = c
		width[col(s.G)] = max(width[col(s.G)], utf8.RuneCountInString(c))
	}
	var b strings.Builder
	b.WriteString("interleaving")
	if skipped > 0 {
		b.WriteString(" (last " + strconv.Itoa(len(rows)) + " steps of " + strconv.Itoa(len(steps)) + ")")
	}
	b.WriteString(":\n")
	line := func(step string, cs []string) {
		var l strings.Builder
		l.WriteString("    " + pad(step, 6))
		for i, c := range cs {
			l.WriteString(" | " + pad(c, width[i]))
		}
		// No trailing blanks: editors and diffs show them.
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteString("\n")
	}
	line("step", head)
	last := -1
	for i, s := range rows {
		label := ""
		if s.Decision != last || i == 0 {
			label = strconv.Itoa(s.Decision)
			last = s.Decision
		}
		cs := make([]string, ncols)
		cs[col(s.G)] = cells[i]
		line(label, cs)
	}
	return b.String()
}

// StepText describes what a step did: "mutex lock #2 bank.go:18 (blocks:
// mutex held by G1)", "go bank_test.go:12 → G2".
func StepText(s Step) string {
	var b strings.Builder
	b.WriteString(s.Op)
	if s.Obj > 0 {
		b.WriteString(" #" + strconv.Itoa(s.Obj))
	}
	if s.Pos != "" {
		b.WriteString(" " + s.Pos)
	}
	if s.Child > 0 {
		b.WriteString(" → G" + strconv.Itoa(s.Child))
	}
	if s.Blocked != "" {
		b.WriteString(" (blocks")
		if s.Blocked != s.Op {
			b.WriteString(": " + s.Blocked)
		}
		b.WriteString(")")
	}
	return b.String()
}

func pad(s string, n int) string {
	// Width in runes: "→" is one column, three bytes.
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
