package testbin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// PollInterval is how often the results file is read while a binary runs,
// for a live progress line and to pass bugs on as they are found.
const PollInterval = 250 * time.Millisecond

// Cmd is one run of an instrumented test binary under a configuration.
type Cmd struct {
	// Bin is the test binary; Dir its working directory (the package's,
	// as go test runs it).
	Bin, Dir string
	// Config goes to the binary in GOSCT_CONFIG. Its Results file is
	// created in TempDir (os.TempDir() if empty) and removed afterwards
	// when it is not set.
	Config  wire.Config
	TempDir string
	// Args are the binary's flags (-test.run, -test.timeout...).
	Args []string
	// Output receives the binary's stdout and stderr as they come; nil
	// discards them.
	Output io.Writer
	// OnEvent is called, in order, with every event of the results file
	// as soon as it is read. OnPoll is called after each read while the
	// binary runs. They are called from one goroutine at a time.
	OnEvent func(wire.Event)
	OnPoll  func()
}

// Result is what a run left behind.
type Result struct {
	Events []wire.Event
	// Truncated: the results file ended in a cut line (the binary died
	// writing it). Bad counts the lines that were not events.
	Truncated bool
	Bad       int
	// ExitCode is the binary's exit status; 128 when a signal killed it.
	ExitCode int
	// Wall is the time from start to exit.
	Wall time.Duration
}

// Run runs the binary, reading its results file while it runs. The error
// is for a binary that could not be started or a results file that could
// not be read; a binary that exits non-zero is a result (ExitCode), to be
// read with its events.
//
// When ctx is done the binary gets an interrupt, and a few seconds to
// finish the schedule it runs and report (a saved search saves itself)
// before it is killed. If it then exits by itself, its exit status is the
// result.
func (c *Cmd) Run(ctx context.Context) (*Result, error) {
	cfg := c.Config
	if cfg.Results == "" {
		f, err := os.CreateTemp(c.TempDir, "results-*.jsonl")
		if err != nil {
			return nil, err
		}
		f.Close()
		defer os.Remove(f.Name())
		cfg.Results = f.Name()
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, c.Bin, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = append(EnvWithout(EnvWithout(os.Environ(), wire.EnvConfig), "GORACE"), wire.EnvConfig+"="+string(b), goRaceEnv())
	out := c.Output
	if out == nil {
		out = io.Discard
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	// WaitDelay also bounds the wait for children that hold the output.
	cmd.WaitDelay = 5 * time.Second

	rr := &resultsReader{path: cfg.Results}
	res := &Result{}
	var mu sync.Mutex
	handle := func(evs []wire.Event, poll bool) {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range evs {
			res.Events = append(res.Events, e)
			if c.OnEvent != nil {
				c.OnEvent(e)
			}
		}
		if poll && c.OnPoll != nil {
			c.OnPoll()
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run test binary: %v", err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(PollInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				evs, _ := rr.poll() // a failed read is retried at the next tick
				handle(evs, true)
			}
		}
	}()
	werr := cmd.Wait()
	res.Wall = time.Since(start)
	close(done)
	wg.Wait()
	evs, truncated, err := rr.finish()
	if err != nil {
		return nil, fmt.Errorf("cannot read the results file: %v", err)
	}
	handle(evs, false)
	res.Truncated, res.Bad = truncated, rr.bad
	if werr != nil && ctx.Err() != nil && cmd.ProcessState != nil {
		// Interrupted, and the binary stopped by itself: its exit
		// status is the result, not the cancellation.
		werr = nil
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			res.ExitCode = exitCode(code)
		}
	}
	if werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return nil, fmt.Errorf("test binary: %v", werr)
		}
		res.ExitCode = exitCode(ee.ExitCode())
	}
	return res, nil
}

// exitCode maps "killed by a signal" (-1) to 128, as a shell reports it
// (without the signal number, which the process state does not give
// portably).
func exitCode(code int) int {
	if code < 0 {
		return 128
	}
	return code
}

// goRaceEnv is GORACE for a test binary built with -race (others ignore
// it): Go's race detector reports a pair of racing statements once per
// process, so the re-run of a schedule that writes its trace, and later
// schedules, would not report the race again and the trace would not
// replay. The user's own GORACE options come last and win.
func goRaceEnv() string {
	return "GORACE=suppress_equal_stacks=0 suppress_equal_addresses=0 " + os.Getenv("GORACE")
}
