package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

const (
	beginMarker = "<!-- module table -->"
	endMarker   = "<!-- end module table -->"
)

// render writes the table of results, its header naming the machine, Go,
// the gosct measured and the load the machine was under.
func render(rs []*result, count int) string {
	var b strings.Builder
	first, last := rs[0].Date, rs[0].Date
	var loads []float64
	revs, gos := map[string]bool{}, map[string]bool{}
	cpus := rs[0].CPUs
	for _, r := range rs {
		if r.Date.Before(first) {
			first = r.Date
		}
		if r.Date.After(last) {
			last = r.Date
		}
		for _, l := range []string{r.LoadBefore, r.LoadAfter} {
			if f := strings.Fields(l); len(f) > 0 {
				if v, err := strconv.ParseFloat(f[0], 64); err == nil {
					loads = append(loads, v)
				}
			}
		}
		revs[r.Rev] = true
		gos[r.GoVersion] = true
		count = r.CountN
	}
	sort.Float64s(loads)
	cmd := "go run ./tools/modtable -gosct GOSCT"
	if count != 1 {
		cmd += fmt.Sprintf(" -count %d", count)
	}
	fmt.Fprintf(&b, "`%s` (GOSCT built from this tree): gosct at %s, %s, %d CPUs, modules started from %s to %s UTC",
		cmd, keys(revs), keys(gos), cpus, first.Format("2006-01-02 15:04"), last.Format("15:04"))
	if len(loads) > 0 {
		fmt.Fprintf(&b, "; 1-minute load average from %.1f to %.1f (median %.1f), read before and after each module", loads[0], loads[len(loads)-1], loads[len(loads)/2])
	}
	fmt.Fprintf(&b, "; each command bounded by %s.\n\n", bound(rs))
	fmt.Fprintf(&b, "| module@version | tests (go test / gosct) | `go test` wall (CPU) | gosct default run, wall (CPU) | gosct / go test, wall (CPU) | gosct exploring | schedules (tests saturated / proved / not explored) | bugs | gosct schedules/s | `go test -count=%d` iterations/s | schedules/s ÷ iterations/s |\n", count)
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		if r.Error != "" {
			fmt.Fprintf(&b, "| %s | - | not measured: %s | | | | | | | | |\n", r.Module, strings.ReplaceAll(r.Error, "|", "\\|"))
			continue
		}
		ratio, rate, vs := "-", "-", "-"
		if !r.GoTest.Bounded && !r.Gosct.Bounded && r.GoTest.WallS > 0 && r.GoTest.CPUS > 0 {
			ratio = fmt.Sprintf("%.1fx (%.1fx)", r.Gosct.WallS/r.GoTest.WallS, r.Gosct.CPUS/r.GoTest.CPUS)
		}
		explore, sched, bugs, tests := "-", "-", "-", "-"
		if !r.Gosct.Bounded {
			tests = strconv.Itoa(r.GosctTests)
			explore = fmt.Sprintf("%.1f s", r.Sum.ExploreS)
			sched = fmt.Sprintf("%d (%d / %d / %d)", r.Sum.Schedules, r.Sum.Saturated, r.Sum.Proved, r.Sum.NotExplored)
			bugs = strconv.Itoa(r.Sum.Bugs)
			rate = fmt.Sprintf("%.0f", r.Sum.SchedulesPerS)
		}
		its := "-"
		if !r.Count.Bounded && r.CountElapsedS > 0 {
			v := float64(r.CountRuns) / r.CountElapsedS
			its = fmt.Sprintf("%.1f", v)
			if rate != "-" {
				vs = fmt.Sprintf("%.2f", r.Sum.SchedulesPerS/v)
			}
		}
		fmt.Fprintf(&b, "| %s | %d / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Module, r.GoTestTests, tests, cell(r.GoTest, r.BoundS, 0), cell(r.Gosct, r.BoundS, 1),
			ratio, explore, sched, bugs, rate, its, vs)
	}
	return b.String()
}

// cell is a command's time, or that it was stopped at the bound; ok is
// the exit status that is not a failure beside 0 (gosct's 1: bugs found).
func cell(t timed, boundS float64, ok int) string {
	if t.Bounded {
		return fmt.Sprintf("stopped at the bound (%.0f s)", boundS)
	}
	s := fmt.Sprintf("%.1f s (%.1f s)", t.WallS, t.CPUS)
	if t.Exit != 0 && t.Exit != ok {
		s += fmt.Sprintf(", exit %d", t.Exit)
	}
	return s
}

func bound(rs []*result) string {
	seen := map[string]bool{}
	for _, r := range rs {
		seen[fmt.Sprintf("%.0f s", r.BoundS)] = true
	}
	return keys(seen)
}

func keys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// splice replaces the table between the markers of doc.
func splice(doc, tbl string) error {
	b, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	s := string(b)
	i := strings.Index(s, beginMarker+"\n")
	j := strings.Index(s, endMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no lines %q and %q to put the table between", doc, beginMarker, endMarker)
	}
	s = s[:i+len(beginMarker)+1] + tbl + s[j:]
	if err := os.WriteFile(doc+".new", []byte(s), 0o644); err != nil {
		return err
	}
	return os.Rename(doc+".new", doc)
}
