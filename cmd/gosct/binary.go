package main

import (
	"bytes"
	"context"
	"io"

	"github.com/gosct/gosct/internal/testbin"
	"github.com/gosct/gosct/internal/wire"
)

// buildTestBinary builds one package's instrumented test binary with the
// user's build flags. A variable: the command's own tests reuse a binary
// built from the same unchanging inputs (cmd_test.go's TestMain).
var buildTestBinary = goTestC

// goTestC is buildTestBinary's `go test -c`.
func goTestC(ctx context.Context, modDir, overlay string, flags []string, gt *goTestFlags, importPath, out string) ([]byte, error) {
	all := append([]string(nil), flags...)
	if gt.tags != "" {
		all = append(all, "-tags="+gt.tags)
	}
	all = append(all, gt.build...)
	return testbin.Build(ctx, modDir, overlay, all, importPath, out)
}

// binaryRun is one run of an instrumented test binary.
type binaryRun struct {
	bin, dir string
	cfg      wire.Config
	args     []string
	// stream passes the binary's output on as it comes (-v).
	stream bool
	// onEvent is called, in order, for every event of the results file, as
	// soon as it is read.
	onEvent func(wire.Event)
	// ownProgress: the caller keeps the progress line itself (one
	// process per schedule), from the events it aggregates.
	ownProgress bool
}

// binaryResult is what a run left behind.
type binaryResult struct {
	events    []wire.Event
	truncated bool // the results file ended in a cut line: the binary died writing
	bad       int  // lines of the results file that were not events
	exitCode  int
	output    []byte
}

// pollInterval is how often the results file is read while a binary runs.
const pollInterval = testbin.PollInterval

// runBinary runs r.bin (testbin.Cmd) and keeps its output, for the report
// of a binary that failed; the progress line follows the events unless
// the caller keeps it.
func runBinary(ctx context.Context, r binaryRun, rep *reporter) (*binaryResult, error) {
	var buf bytes.Buffer
	var w io.Writer = &buf
	if r.stream {
		w = io.MultiWriter(&buf, writerFunc(func(b []byte) (int, error) {
			rep.output(r.cfg.Package, b)
			return len(b), nil
		}))
	}
	c := &testbin.Cmd{Bin: r.bin, Dir: r.dir, Config: r.cfg, Args: r.args, Output: w, OnEvent: r.onEvent}
	if rep.progress != nil && !r.ownProgress {
		c.OnEvent = func(e wire.Event) {
			rep.progress.observe([]wire.Event{e})
			if r.onEvent != nil {
				r.onEvent(e)
			}
		}
		c.OnPoll = rep.progress.draw
	}
	res, err := c.Run(ctx)
	if err != nil {
		return nil, err
	}
	return &binaryResult{events: res.Events, truncated: res.Truncated, bad: res.Bad, exitCode: res.ExitCode, output: buf.Bytes()}, nil
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
