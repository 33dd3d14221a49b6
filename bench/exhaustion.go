package bench

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
)

// Partial-order reduction in the benchmark: how many schedules the
// systematic searches need to exhaust the correct programs (dfs runs every
// interleaving, dpor one per Mazurkiewicz trace, dpor-states also prunes
// states it saw), and whether dpor misses a bug dfs finds.

// exhaustive are the columns of the exhaustion tables, in order: the
// searches whose exhaustion proves a program correct within the model.
var exhaustive = []string{"dfs", "dpor", "dpor-states"}

// exhaustiveCols returns the exhaustive strategies of the report.
func (rep *Report) exhaustiveCols() []string {
	var out []string
	for _, n := range exhaustive {
		for _, s := range rep.Strategies {
			if s.Name == n {
				out = append(out, n)
			}
		}
	}
	return out
}

// exhaustCell renders how far one search got on a correct program.
func exhaustCell(r *Result, limit int) string {
	switch {
	case r == nil:
		return ""
	case r.Err != "":
		return "err"
	case r.Found:
		return fmt.Sprintf("bug at %d", r.First)
	case r.Exhausted && r.Unproved:
		return fmt.Sprintf("%d (not a proof)", r.Schedules)
	case r.Exhausted:
		return fmt.Sprint(r.Schedules)
	case r.Budget:
		return fmt.Sprintf("did not exhaust within the budget (%d)", r.Schedules)
	}
	return fmt.Sprintf("did not exhaust within %d", limit)
}

// Exhaustion writes the section on partial-order reduction, when the
// report has at least two of dfs, dpor and dpor-states.
func (rep *Report) Exhaustion(w io.Writer) {
	cols := rep.exhaustiveCols()
	if len(cols) < 2 {
		return
	}
	rs := rep.res()
	fmt.Fprintf(w, "## Partial-order reduction: schedules to exhaust the correct programs\n\n")
	fmt.Fprintf(w, "How many schedules each systematic search runs before it has explored everything (a proof within the model: "+
		"dfs every interleaving, dpor one per Mazurkiewicz trace, dpor-states the same minus the subtrees of states it had "+
		"explored, docs/strategies.md), on every correct program; limit %d schedules, budget %v per run. "+
		"A count marked \"not a proof\" is a search that ran out of schedules without a proof (docs/strategies.md, \"Proofs\": "+
		"uncontrolled code, a replay divergence, steps the fair scheduler took, a value no decision chose such as the clock's; "+
		"dpor-states also: a subtree pruned at a matched state, a point completed by seed 002's closed-subset rule).\n\n", rep.Schedules, rep.Budget)
	if rep.source != "" {
		fmt.Fprintf(w, "%s\n\n", rep.source)
	}
	exhausted := map[string]int{}
	var ratios []float64
	// onlyDPOR: programs dpor exhausted and dfs did not; statesRuns: the
	// schedules of dpor and dpor-states where both exhausted a program.
	onlyDPOR, both := 0, 0
	var statesRuns [2]int
	var savedMax float64
	var rows [][]string
	n := 0
	for _, p := range rep.Programs {
		if !p.IsFixed() {
			continue
		}
		n++
		row := []string{p.Dir}
		for _, c := range cols {
			r := rs.Get(p.Dir, c)
			row = append(row, exhaustCell(r, rep.Schedules))
			if proved(r) {
				exhausted[c]++
			}
		}
		a, b, c := rs.Get(p.Dir, "dfs"), rs.Get(p.Dir, "dpor"), rs.Get(p.Dir, "dpor-states")
		if proved(a) && proved(b) && b.Schedules > 0 {
			ratios = append(ratios, float64(a.Schedules)/float64(b.Schedules))
		}
		if a != nil && !proved(a) && proved(b) {
			onlyDPOR++
		}
		if proved(b) && proved(c) {
			both++
			statesRuns[0] += b.Schedules
			statesRuns[1] += c.Schedules
			if b.Schedules > 0 {
				savedMax = max(savedMax, 1-float64(c.Schedules)/float64(b.Schedules))
			}
		}
		rows = append(rows, row)
	}
	var tot []string
	for _, c := range cols {
		tot = append(tot, fmt.Sprintf("%s %d", c, exhausted[c]))
	}
	fmt.Fprintf(w, "Exhausted, of %d correct programs: %s.", n, strings.Join(tot, ", "))
	if len(ratios) > 0 {
		sort.Float64s(ratios)
		fmt.Fprintf(w, " Where both dfs and dpor exhausted a program (%d), dfs ran a median %.1f times as many schedules (from %.1f to %.0f).",
			len(ratios), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
	}
	if onlyDPOR > 0 {
		fmt.Fprintf(w, " dpor exhausted %d programs dfs did not.", onlyDPOR)
	}
	if both > 0 && statesRuns[0] > 0 {
		fmt.Fprintf(w, " Where both dpor and dpor-states exhausted a program (%d), dpor-states ran %d schedules to dpor's %d (%.0f%% fewer; at most %.0f%% fewer on one program).",
			both, statesRuns[1], statesRuns[0], 100*(1-float64(statesRuns[1])/float64(statesRuns[0])), 100*savedMax)
	}
	fmt.Fprintf(w, "\n\n")
	table(w, append([]string{"correct program"}, cols...), rows)
	fmt.Fprintf(w, "\n")

	fmt.Fprintf(w, "### Bugs: schedules to the first bug\n\n")
	found := map[string]int{}
	var missed []string
	rows = nil
	nb := 0
	for _, p := range rep.Programs {
		if p.IsFixed() {
			continue
		}
		nb++
		row := []string{p.Dir}
		for _, c := range cols {
			r := rs.Get(p.Dir, c)
			row = append(row, Cell(r))
			if r != nil && r.Found {
				found[c]++
			}
		}
		rows = append(rows, row)
	}
	var unchecked []string
	for _, c := range cols[1:] {
		m, u := rep.Covers(cols[0], c)
		missed, unchecked = append(missed, m...), append(unchecked, u...)
	}
	tot = nil
	for _, c := range cols {
		tot = append(tot, fmt.Sprintf("%s %d", c, found[c]))
	}
	fmt.Fprintf(w, "Found, of %d buggy programs: %s. ", nb, strings.Join(tot, ", "))
	if len(missed) == 0 {
		fmt.Fprintf(w, "No bug that %s found within the limit was missed by %s.\n\n", cols[0], strings.Join(cols[1:], " or "))
	} else {
		fmt.Fprintf(w, "Missed:\n\n")
		for _, m := range missed {
			fmt.Fprintf(w, "- %s\n", m)
		}
		fmt.Fprintf(w, "\n")
	}
	if len(unchecked) > 0 {
		fmt.Fprintf(w, "Missed in a search the strategy says was incomplete (not a proof, so not counted against it):\n\n")
		for _, m := range unchecked {
			fmt.Fprintf(w, "- %s\n", m)
		}
		fmt.Fprintf(w, "\n")
	}
	table(w, append([]string{"buggy program"}, cols...), rows)
	fmt.Fprintf(w, "\n")
}

// proved reports whether r exhausted its search without a bug or an
// error (its cell says when the strategy does not call that a proof).
func proved(r *Result) bool {
	return r != nil && r.Exhausted && r.Err == "" && !r.Found
}

// Covers lists the buggy programs on which strategy a found a bug and b
// did not, and apart (unchecked) those where b missed it in a search it
// says was incomplete (Result.Unproved: uncontrolled code, a replay
// divergence, the fair scheduler's steps; docs/strategies.md, "dpor").
func (rep *Report) Covers(a, b string) (missed, unchecked []string) {
	rs := rep.res()
	for _, p := range rep.Programs {
		if p.IsFixed() {
			continue
		}
		ra, rb := rs.Get(p.Dir, a), rs.Get(p.Dir, b)
		if ra == nil || rb == nil || !ra.Found || rb.Found {
			continue
		}
		why := fmt.Sprintf("in %d schedules", rb.Schedules)
		switch {
		case rb.Err != "":
			why = "(" + firstLine(rb.Err) + ")"
		case rb.Budget:
			why = fmt.Sprintf("in the %d schedules its budget allowed", rb.Schedules)
		}
		m := fmt.Sprintf("%s: %s found the %s at schedule %d, %s missed it %s", p.Dir, a, ra.Kind, ra.First, b, why)
		if rb.Unproved && rb.Err == "" && !rb.Budget {
			unchecked = append(unchecked, m+", in a search it says was incomplete")
			continue
		}
		missed = append(missed, m)
	}
	return missed, unchecked
}

// ParseCovers parses --covers: pairs a:b, comma-separated.
func ParseCovers(s string, st []Strategy) ([][2]string, error) {
	var out [][2]string
	names := make([]string, len(st))
	for i, x := range st {
		names[i] = x.Name
	}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		a, b, ok := strings.Cut(p, ":")
		if !ok || !slices.Contains(names, a) || !slices.Contains(names, b) {
			return nil, fmt.Errorf("--covers %q: want a:b with both among --strategies", p)
		}
		out = append(out, [2]string{a, b})
	}
	return out, nil
}

// The markers of the section --exhaustion writes.
const (
	exhaustionBegin = "<!-- gosct-bench --exhaustion: begin -->"
	exhaustionEnd   = "<!-- gosct-bench --exhaustion: end -->"
)

// writeSection replaces what lies between the markers begin and end in
// the file with what render writes; a file without the markers gets them
// before the text before (the reading the full report ends with), or at
// its end.
func writeSection(file, begin, end, before string, render func(io.Writer)) error {
	old, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var b strings.Builder
	render(&b)
	body := begin + "\n" + strings.TrimSpace(b.String()) + "\n" + end
	doc := string(old)
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	k := -1
	if before = strings.TrimSpace(before); before != "" {
		k = strings.Index(doc, before)
	}
	switch {
	case i >= 0 && j > i:
		doc = doc[:i] + body + doc[j+len(end):]
	case k >= 0:
		doc = doc[:k] + body + "\n\n" + doc[k:]
	default:
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		doc += "\n" + body + "\n"
	}
	return os.WriteFile(file, []byte(doc), 0o644)
}
