package replay

import (
	"fmt"
	"sort"
	"strings"
)

// Uncontrolled source kinds: reads the runtime sees but cannot reproduce.
// Their presence before a divergence makes them a likely cause even when
// both runs read the same.
var uncontrolledKinds = map[string]bool{
	"uncontrolled channel": true,
	"uncontrolled code":    true,
	"unordered map":        true,
}

// A Finding names the likely source of a difference between two runs of
// one schedule: Kind is the kind of source ("rand", "map order", "time",
// "env", "file", "uncontrolled channel", "uncontrolled code", "changed
// file", ...), Text says what, where and why.
type Finding struct {
	Kind, Text string
}

// Cause names the likely source of a divergence at decision step (0-based)
// between a recorded run (rec: its Sources and Files) and a live one (live,
// liveFiles; liveFiles nil when unknown). In order of likelihood: a file
// changed since the trace was written; the first source read differently
// at or before the step; the first read of something uncontrolled at or
// before it. The zero Finding when nothing explains it.
func Cause(rec *Trace, live []Source, liveFiles map[string]string, step int) Finding {
	if changed := ChangedFiles(rec.Files, liveFiles); len(changed) > 0 {
		return Finding{"changed file", strings.Join(changed, ", ") + " changed since the trace was written"}
	}
	return SourceCause(rec.Sources, live, step)
}

// SourceCause compares the sources two runs of one schedule read, up to
// decision step, and names the first that differs (DiffSources), else the
// first uncontrolled one read by either.
func SourceCause(a, b []Source, step int) Finding {
	if f, ok := DiffSources(a, b, step); ok {
		return f
	}
	for _, list := range [][]Source{a, b} {
		for i := range list {
			if list[i].Step > step {
				break
			}
			if uncontrolledKinds[list[i].Kind] {
				return Finding{list[i].Kind, describeSource(&list[i])}
			}
		}
	}
	return Finding{}
}

// DiffSources names the first source read differently by two runs of one
// schedule, at or before decision step; false when they read the same.
func DiffSources(a, b []Source, step int) (Finding, bool) {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	for i := 0; i < n; i++ {
		x, y := &a[i], &b[i]
		if x.Step > step && y.Step > step {
			return Finding{}, false
		}
		if x.Kind != y.Kind || x.What != y.What || x.Pos != y.Pos {
			return Finding{x.Kind, fmt.Sprintf("%s in one run, %s in the other: the runs read different sources from there", describeSource(x), describeSource(y))}, true
		}
		if x.Value != y.Value {
			return Finding{x.Kind, describeRead(x)}, true
		}
		if uncontrolledKinds[x.Kind] && x.Step != y.Step {
			return Finding{x.Kind, fmt.Sprintf("%s, at step %d in one run and %d in the other", describeSource(x), x.Step+1, y.Step+1)}, true
		}
	}
	for _, list := range [][]Source{a[n:], b[n:]} {
		if len(list) > 0 && list[0].Step <= step {
			return Finding{list[0].Kind, describeSource(&list[0]) + ", read in one run only"}, true
		}
	}
	return Finding{}, false
}

// describeRead says what differed in a source read by two runs.
func describeRead(s *Source) string {
	switch {
	case s.Controlled:
		return describeSource(s) + " read another value (a control turned off, or an earlier difference)"
	}
	return describeSource(s) + " read another value: gosct does not control it"
}

// describeSource is "rand: rand.Float64 at x.go:12".
func describeSource(s *Source) string {
	var b strings.Builder
	b.WriteString(s.Kind)
	if s.What != "" && s.What != s.Kind {
		b.WriteString(": " + s.What)
	}
	if s.Pos != "" {
		b.WriteString(" at " + s.Pos)
	}
	return b.String()
}

// ChangedFiles lists, sorted, the files of rec whose hash differs in live,
// or that live lacks; nil when live is nil (the current files are not
// known).
func ChangedFiles(rec, live map[string]string) []string {
	if live == nil {
		return nil
	}
	var out []string
	for f, h := range rec {
		if live[f] != h {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
