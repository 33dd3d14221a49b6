package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
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

// runBinary runs bin in dir with cfg (whose Results is set here) and
// collects the events and the count of failed schedule subtests. Output is
// scanned as it streams, not kept: a run that keeps going prints a report
// for every buggy schedule.
func runBinary(ctx context.Context, bin, dir, tmp string, cfg wire.Config, timeout time.Duration) (*runOutcome, error) {
	f, err := os.CreateTemp(tmp, "results-*.jsonl")
	if err != nil {
		return nil, err
	}
	f.Close()
	defer os.Remove(f.Name())
	cfg.Results = f.Name()
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run=.", "-test.count=1", "-test.timeout="+timeout.String())
	cmd.Dir = dir
	cmd.Env = append(testbin.EnvWithout(os.Environ(), wire.EnvConfig), wire.EnvConfig+"="+string(b))
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.WaitDelay = 5 * time.Second
	o := &runOutcome{}
	tail := newTail(20)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			if failedSchedule.MatchString(line) {
				o.failed++
			}
			tail.add(line)
		}
		io.Copy(io.Discard, pr)
	}()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		<-scanned
		return nil, err
	}
	werr := cmd.Wait()
	o.wall = time.Since(start)
	pw.Close()
	<-scanned
	o.tail = tail.String()
	if werr != nil {
		if ee, ok := werr.(*exec.ExitError); ok {
			o.exit = ee.ExitCode()
			if o.exit < 0 {
				o.exit = 128
			}
		} else {
			return nil, werr
		}
	}
	o.events, err = readEvents(cfg.Results)
	return o, err
}

// readEvents reads a results file; a cut last line (the binary died
// writing it) is dropped.
func readEvents(path string) ([]wire.Event, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []wire.Event
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e wire.Event
		if json.Unmarshal(line, &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
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
