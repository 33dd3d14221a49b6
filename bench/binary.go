package bench

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/testbin"
	"github.com/gosct/gosct/internal/wire"
)

// buildBinary builds one package's instrumented test binary, as the
// command does (without user go test flags, which the benchmark does not
// take).
func buildBinary(ctx context.Context, modDir, overlay string, flags []string, importPath, out string) error {
	if b, err := testbin.Build(ctx, modDir, overlay, flags, importPath, out); err != nil {
		return fmt.Errorf("go test -c %s: %v\n%s", importPath, err, lastLines(string(b), 10))
	}
	return nil
}

// failedSchedule matches go test's line for a failed schedule subtest
// (the runtime runs schedule N as subtest schedule_N and fails it on a
// bug). The _replay subtests, which re-run a new bug to record its trace,
// do not match.
var failedSchedule = regexp.MustCompile(`^\s*--- FAIL: \S+/schedule_[0-9]+ \(`)

// runOutcome is what one run of a test binary left.
type runOutcome struct {
	events []wire.Event
	// failed counts the schedules whose subtest failed.
	failed int
	wall   time.Duration
	exit   int
	tail   string // the end of the output, to explain errors
}

// runBinary runs bin in dir with cfg (testbin.Cmd) and collects the events
// and the count of failed schedule subtests. Output is scanned as it
// streams, not kept: a run that keeps going prints a report for every
// buggy schedule.
func runBinary(ctx context.Context, bin, dir, tmp string, cfg wire.Config, timeout time.Duration) (*runOutcome, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second)
	defer cancel()
	o := &runOutcome{}
	tail := newTail(20)
	lines := &lineWriter{line: func(line string) {
		if failedSchedule.MatchString(line) {
			o.failed++
		}
		tail.add(line)
	}}
	c := &testbin.Cmd{Bin: bin, Dir: dir, Config: cfg, TempDir: tmp, Output: lines,
		Args: []string{"-test.run=.", "-test.count=1", "-test.timeout=" + timeout.String()}}
	res, err := c.Run(ctx)
	if err != nil {
		return nil, err
	}
	lines.flush()
	o.events, o.wall, o.exit, o.tail = res.Events, res.Wall, res.ExitCode, tail.String()
	return o, nil
}

// lineWriter calls line for every line written to it; flush passes on a
// last line without its newline.
type lineWriter struct {
	line    func(string)
	partial []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	data := append(w.partial, b...)
	for {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			break
		}
		w.line(strings.TrimSuffix(string(data[:nl]), "\r"))
		data = data[nl+1:]
	}
	// A line longer than 16 MB is cut: its start is all a count needs.
	if len(data) > 16<<20 {
		w.line(string(data))
		data = data[:0]
	}
	w.partial = append(w.partial[:0], data...)
	return len(b), nil
}

func (w *lineWriter) flush() {
	if len(w.partial) > 0 {
		w.line(string(w.partial))
		w.partial = nil
	}
}

// tail keeps the last n lines.
type tail struct {
	n     int
	lines []string
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) add(s string) {
	t.lines = append(t.lines, s)
	if len(t.lines) > 2*t.n {
		t.lines = append(t.lines[:0], t.lines[len(t.lines)-t.n:]...)
	}
}

func (t *tail) String() string {
	l := t.lines
	if len(l) > t.n {
		l = l[len(l)-t.n:]
	}
	return strings.Join(l, "\n")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
