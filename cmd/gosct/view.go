package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gosct/gosct/replay"
	"github.com/spf13/pflag"
)

const viewUsage = `usage: gosct view [--format html|perfetto] [-o FILE] TRACE

Writes the schedule of a trace as a timeline: one lane per goroutine, each
step a box with its operation and source line, a blocked goroutine's wait
as a hatched gap with its reason, the bug marked at its end. Click a box
for the goroutine's stack at that step.

--format html (the default) writes one self-contained page (no network,
no build step: open it from file://). --format perfetto writes Chrome
trace-event JSON, for ui.perfetto.dev or chrome://tracing.

The file goes beside the trace (TRACE.html, TRACE.perfetto.json) unless
-o names another; "-o -" writes to standard output.

Flags:
`

type viewOptions struct {
	format string
	out    string
	trace  string
}

func parseView(args []string) (*viewOptions, *pflag.FlagSet, error) {
	o := &viewOptions{}
	fs := pflag.NewFlagSet("gosct view", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVar(&o.format, "format", "html", "html or perfetto")
	fs.StringVarP(&o.out, "output", "o", "", "the file to write (default: beside the trace; - for standard output)")
	if err := parseFlags(fs, args); err != nil {
		return nil, fs, err
	}
	switch pos := fs.Args(); {
	case len(pos) == 0:
		return nil, fs, usagef("no trace given (gosct view TRACE)")
	case len(pos) > 1:
		return nil, fs, usagef("one trace at a time, got %d arguments", len(pos))
	default:
		o.trace = pos[0]
	}
	if o.format != "html" && o.format != "perfetto" {
		return nil, fs, usagef("unknown --format %q (html or perfetto)", o.format)
	}
	return o, fs, nil
}

func cmdView(_ context.Context, args []string, stdout, stderr io.Writer) int {
	o, fs, err := parseView(args)
	if errors.Is(err, errHelp) {
		return printUsage(stdout, viewUsage, fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct view: %v\n", err)
		return exitError
	}
	_, t, err := openTrace(o.trace)
	if err != nil {
		fmt.Fprintf(stderr, "gosct view: %v\n", err)
		return exitError
	}
	if len(t.Steps) == 0 {
		fmt.Fprintf(stderr, "gosct view: %s has no steps (it was written by a gosct before steps were recorded; run gosct test again for a new trace)\n", o.trace)
		return exitError
	}
	var data []byte
	switch o.format {
	case "perfetto":
		data, err = perfettoJSON(t)
	default:
		data, err = timelineHTML(t, filepath.Base(o.trace))
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct view: %v\n", err)
		return exitError
	}
	if o.out == "-" {
		stdout.Write(data)
		return exitOK
	}
	out := o.out
	if out == "" {
		ext := ".html"
		if o.format == "perfetto" {
			ext = ".perfetto.json"
		}
		out = strings.TrimSuffix(o.trace, ".json") + ext
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "gosct view: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "gosct: wrote %s\n", out)
	return exitOK
}

// viewData is what the page's script draws: the trace's steps with what
// each goroutine was doing between them.
type viewData struct {
	Title   string             `json:"title"`
	Test    string             `json:"test"`
	Package string             `json:"package"`
	Bug     *replay.Bug        `json:"bug,omitempty"`
	Size    string             `json:"size,omitempty"`
	Steps   []replay.Step      `json:"steps"`
	Stacks  []string           `json:"stacks,omitempty"`
	Gs      []replay.Goroutine `json:"goroutines"`
}

func newViewData(t *replay.Trace, name string) *viewData {
	d := &viewData{Title: name, Test: t.Test, Package: t.Package, Bug: t.Bug, Steps: t.Steps, Stacks: t.Stacks, Gs: lanes(t)}
	if m := t.Minimized; m != nil {
		d.Size = m.To.String()
		if m.From != m.To {
			d.Size += " (shrunk from " + m.From.String() + ")"
		}
	}
	if d.Bug != nil {
		b := *d.Bug
		b.Report = "" // the page shows the message and the stacks
		d.Bug = &b
	}
	return d
}

// lanes are the goroutines of the timeline: the trace's list, else those
// its steps name.
func lanes(t *replay.Trace) []replay.Goroutine {
	if len(t.Goroutines) > 0 {
		return t.Goroutines
	}
	n := 0
	for _, s := range t.Steps {
		n = max(n, s.G+1, s.Child+1)
	}
	gs := make([]replay.Goroutine, n)
	for i := range gs {
		gs[i].ID = i
	}
	return gs
}

// timelineHTML renders the self-contained page.
func timelineHTML(t *replay.Trace, name string) ([]byte, error) {
	// json.Marshal escapes <, > and &: the data cannot end its script
	// element.
	data, err := json.Marshal(newViewData(t, name))
	if err != nil {
		return nil, err
	}
	page := strings.Replace(timelineTemplate, "/*TRACE*/null", string(data), 1)
	page = strings.Replace(page, "<title>gosct</title>", "<title>gosct: "+htmlEscape(t.Test)+"</title>", 1)
	return []byte(page), nil
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// perfettoJSON renders the steps as Chrome trace events: a thread per
// goroutine, a slice per step (1 ms each, in order: the schedule has no
// durations, only an order), a slice per blocked wait, an instant event
// at the bug.
func perfettoJSON(t *replay.Trace) ([]byte, error) {
	type event struct {
		Name string         `json:"name"`
		Cat  string         `json:"cat,omitempty"`
		Ph   string         `json:"ph"`
		Ts   int64          `json:"ts"`
		Dur  int64          `json:"dur,omitempty"`
		Pid  int            `json:"pid"`
		Tid  int            `json:"tid"`
		S    string         `json:"s,omitempty"`
		Args map[string]any `json:"args,omitempty"`
	}
	const unit = 1000                       // µs per step
	tid := func(g int) int { return g + 2 } // the clock, G -1, is thread 1
	var evs []event
	evs = append(evs, event{Name: "process_name", Ph: "M", Pid: 1, Args: map[string]any{"name": t.Test}})
	evs = append(evs, event{Name: "thread_name", Ph: "M", Pid: 1, Tid: tid(-1), Args: map[string]any{"name": "clock"}})
	for _, g := range lanes(t) {
		name := fmt.Sprintf("G%d %s", g.ID, g.Created)
		evs = append(evs, event{Name: "thread_name", Ph: "M", Pid: 1, Tid: tid(g.ID), Args: map[string]any{"name": name}})
		evs = append(evs, event{Name: "thread_sort_index", Ph: "M", Pid: 1, Tid: tid(g.ID), Args: map[string]any{"sort_index": g.ID}})
	}
	blocked := map[int]int{} // goroutine -> index of its blocked step
	for i, s := range t.Steps {
		args := map[string]any{"decision": s.Decision, "step": i + 1}
		if s.Pos != "" {
			args["pos"] = s.Pos
		}
		if s.Obj > 0 {
			args["object"] = fmt.Sprintf("#%d", s.Obj)
		}
		if s.Stack > 0 && s.Stack <= len(t.Stacks) {
			args["stack"] = t.Stacks[s.Stack-1]
		}
		if b, ok := blocked[s.G]; ok {
			evs = append(evs, event{Name: "blocked: " + t.Steps[b].Blocked, Cat: "blocked", Ph: "X", Ts: int64(b+1) * unit, Dur: int64(i-b-1)*unit + unit/2, Pid: 1, Tid: tid(s.G)})
			delete(blocked, s.G)
		}
		evs = append(evs, event{Name: replay.StepText(s), Cat: "step", Ph: "X", Ts: int64(i) * unit, Dur: unit, Pid: 1, Tid: tid(s.G), Args: args})
		if s.Blocked != "" {
			blocked[s.G] = i
		}
	}
	end := int64(len(t.Steps)) * unit
	for g, b := range blocked {
		evs = append(evs, event{Name: "blocked: " + t.Steps[b].Blocked, Cat: "blocked", Ph: "X", Ts: int64(b+1) * unit, Dur: end - int64(b+1)*unit, Pid: 1, Tid: tid(g)})
	}
	if t.Bug != nil {
		evs = append(evs, event{Name: t.Bug.Kind + ": " + firstLine(t.Bug.Message), Cat: "bug", Ph: "i", S: "g", Ts: end, Pid: 1, Tid: tid(0)})
	}
	return json.MarshalIndent(map[string]any{"traceEvents": evs, "displayTimeUnit": "ms"}, "", " ")
}
