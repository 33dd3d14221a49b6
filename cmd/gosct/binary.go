package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/gosct/gosct/internal/testbin"
	"github.com/gosct/gosct/internal/wire"
)

// buildTestBinary builds one package's instrumented test binary with the
// user's build flags.
func buildTestBinary(ctx context.Context, modDir, overlay string, flags []string, gt *goTestFlags, importPath, out string) ([]byte, error) {
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

// pollInterval is how often the results file is read while a binary runs,
// for the live progress line and to print bugs as they are found.
const pollInterval = 250 * time.Millisecond

// runBinary runs r.bin in r.dir with GOSCT_CONFIG set, reading the results
// file while it runs. The error is for a binary that could not be started
// or a results file that could not be read; a binary that exits non-zero is
// a result (exitCode), interpreted by the caller from the events.
func runBinary(ctx context.Context, r binaryRun, rep *reporter) (*binaryResult, error) {
	cfg, err := json.Marshal(r.cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, r.bin, r.args...)
	cmd.Dir = r.dir
	cmd.Env = append(testbin.EnvWithout(testbin.EnvWithout(os.Environ(), wire.EnvConfig), "GORACE"), wire.EnvConfig+"="+string(cfg), goRaceEnv())
	var buf bytes.Buffer
	var w io.Writer = &buf
	if r.stream {
		w = io.MultiWriter(&buf, writerFunc(func(b []byte) (int, error) {
			rep.output(b)
			return len(b), nil
		}))
	}
	cmd.Stdout, cmd.Stderr = w, w
	// On ^C the binary gets the interrupt too, and a few seconds to write
	// what it has before it is killed; WaitDelay also bounds the wait for
	// children that hold the output pipe.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second

	rr := &resultsReader{path: r.cfg.Results}
	res := &binaryResult{}
	var mu sync.Mutex
	handle := func(evs []wire.Event) {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range evs {
			res.events = append(res.events, e)
			if rep.progress != nil && !r.ownProgress {
				rep.progress.observe([]wire.Event{e})
			}
			if r.onEvent != nil {
				r.onEvent(e)
			}
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run test binary: %v", err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(pollInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if evs, err := rr.poll(); err == nil {
					handle(evs)
				}
				if rep.progress != nil && !r.ownProgress {
					rep.progress.draw()
				}
			}
		}
	}()
	werr := cmd.Wait()
	close(done)
	wg.Wait()
	evs, truncated, err := rr.finish()
	if err != nil {
		return nil, fmt.Errorf("cannot read the results file: %v", err)
	}
	handle(evs)
	res.truncated, res.bad = truncated, rr.bad
	res.output = buf.Bytes()
	if werr != nil && ctx.Err() != nil && cmd.ProcessState != nil {
		// Interrupted, and the binary stopped by itself (a saved search
		// stops at the end of its schedule and reports): its exit
		// status is the result, not the cancellation.
		werr = nil
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			res.exitCode = code
			if code < 0 {
				res.exitCode = 128
			}
		}
	}
	if werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return nil, fmt.Errorf("test binary: %v", werr)
		}
		res.exitCode = ee.ExitCode()
		if res.exitCode < 0 {
			res.exitCode = 128 // killed by a signal
		}
	}
	return res, nil
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// goRaceEnv is GORACE for a test binary built with -race (others ignore
// it): Go's race detector reports a pair of racing statements once per
// process, so the re-run of a schedule that writes its trace, and later
// schedules, would not report the race again and the trace would not
// replay. The user's own GORACE options come last and win.
func goRaceEnv() string {
	return "GORACE=suppress_equal_stacks=0 suppress_equal_addresses=0 " + os.Getenv("GORACE")
}
