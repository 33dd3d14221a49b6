package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gosct/gosct/replay"
)

// stdin is where `gosct replay --step` reads its keys (tests replace it).
var stdin io.Reader = os.Stdin

// writesToTerminal reports whether w is a terminal a person reads.
func writesToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// interactive reports whether r is a terminal a person types at.
func interactive(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// walkSteps shows the steps of t one at a time: the goroutine, its
// operation, the source line, and what every goroutine is doing. On a
// terminal it waits for a key after each step (Enter: next, b: back, a
// number: that step, q: quit); otherwise it prints them all.
func walkSteps(t *replay.Trace, dir string, in io.Reader, out io.Writer) {
	if len(t.Steps) == 0 {
		fmt.Fprintf(out, "gosct: the trace has no steps to walk (it was written by a gosct before steps were recorded)\n")
		return
	}
	src := &sources{dir: dir, files: map[string][]string{}}
	names := map[int]string{}
	for _, g := range t.Goroutines {
		names[g.ID] = g.Created
	}
	live := interactive(in) && writesToTerminal(out)
	keys := bufio.NewScanner(in)
	for i := 0; i >= 0 && i < len(t.Steps); {
		showStep(out, t, i, names, src)
		if !live {
			i++
			continue
		}
		fmt.Fprintf(out, "[Enter] next, b back, N step N, q quit: ")
		if !keys.Scan() { // no one types (/dev/null): show the rest
			fmt.Fprintln(out)
			live = false
			i++
			continue
		}
		switch k := strings.TrimSpace(keys.Text()); {
		case k == "q":
			return
		case k == "b":
			i = max(i-1, 0)
		case k == "":
			i++
		default:
			if n, err := strconv.Atoi(k); err == nil && n >= 1 && n <= len(t.Steps) {
				i = n - 1
			}
		}
	}
	if t.Bug != nil {
		fmt.Fprintf(out, "end: %s: %s\n", t.Bug.Kind, firstLine(t.Bug.Message))
	}
}

// showStep prints step i and where every goroutine stands after it.
func showStep(out io.Writer, t *replay.Trace, i int, names map[int]string, src *sources) {
	s := t.Steps[i]
	who := "clock"
	if s.G >= 0 {
		who = "G" + strconv.Itoa(s.G)
		if s.G == 0 {
			who += " (test goroutine)"
		} else if n := names[s.G]; n != "" {
			who += " (" + n + ")"
		}
	}
	fmt.Fprintf(out, "step %d of %d (decision %d): %s: %s\n", i+1, len(t.Steps), s.Decision, who, replay.StepText(s))
	if line := src.line(s.Pos); line != "" {
		fmt.Fprintf(out, "    %s: %s\n", s.Pos, line)
	}
	fmt.Fprintf(out, "    %s\n", standing(t.Steps[:i+1]))
}

// standing says what each goroutine is doing after steps: running,
// blocked and on what, exited.
func standing(steps []replay.Step) string {
	state := map[int]string{}
	var order []int
	for _, s := range steps {
		if s.G < 0 {
			continue
		}
		if _, ok := state[s.G]; !ok {
			order = append(order, s.G)
		}
		if s.Child > 0 {
			if _, ok := state[s.Child]; !ok {
				order = append(order, s.Child)
			}
			state[s.Child] = "not started"
		}
		switch {
		case s.Op == "exit" || s.Op == "panic":
			state[s.G] = "exited"
		case s.Blocked != "":
			state[s.G] = "blocked (" + s.Blocked + ")"
		default:
			state[s.G] = "runnable"
		}
	}
	if last := steps[len(steps)-1]; last.G >= 0 && state[last.G] == "runnable" {
		state[last.G] = "running"
	}
	parts := make([]string, 0, len(order))
	for _, g := range order {
		parts = append(parts, "G"+strconv.Itoa(g)+" "+state[g])
	}
	return strings.Join(parts, " · ")
}

// sources reads the lines that steps point to ("file.go:12"), looking for
// the file in the package's directory.
type sources struct {
	dir   string
	files map[string][]string
}

func (s *sources) line(pos string) string {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 || s.dir == "" {
		return ""
	}
	n, err := strconv.Atoi(pos[i+1:])
	if err != nil {
		return ""
	}
	name := pos[:i]
	lines, ok := s.files[name]
	if !ok {
		if b, err := os.ReadFile(filepath.Join(s.dir, filepath.Base(name))); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		s.files[name] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}
