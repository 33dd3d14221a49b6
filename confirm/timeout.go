package confirm

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// A run's bound. A deadlock shows as go test's -timeout, so the bound
// should be short; but a test that takes longer than the bound by itself
// (a test that sleeps 3 s to see a keepalive fire) times out in every
// run, whatever the delays, and nothing can be confirmed. So, unless the
// user gave one, the bound is measured: the test as it is, unpatched,
// runs once under go test, and each run of the patched test may take
// three times as long (a patch adds a few delays of 20 ms), never less
// than minTimeout.
const (
	minTimeout = 3 * time.Second
	// measureBound bounds the unpatched run: a test that takes longer
	// (or hangs unprompted) gets minTimeout, as before the measure.
	measureBound = time.Minute
)

// autoTimeout measures the test as it is and returns the bound of a run,
// and how it was chosen (for the report).
func (c *confirmer) autoTimeout(ctx context.Context) (time.Duration, string) {
	dir := filepath.Join(c.tmp, "unpatched")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return minTimeout, "the default (" + err.Error() + ")"
	}
	c.opts.Progress("the test as it is: building, to measure it")
	bin, err := c.compile(ctx, &patchSet{helpers: map[string]string{}}, dir)
	if err != nil {
		return minTimeout, "the default (the unpatched package did not build)"
	}
	c.opts.Progress("the test as it is: running it once, to measure it")
	cmd := exec.CommandContext(ctx, bin, "-test.run="+c.runPattern(), "-test.count=1",
		"-test.timeout="+measureBound.String())
	cmd.Dir = c.opts.Layout.Dir
	cmd.Env = withoutEnv(os.Environ(), "GOSCT_CONFIG")
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil || took >= measureBound {
		return minTimeout, fmt.Sprintf("the default: the test as it is ran past %s", measureBound)
	}
	return boundFor(took), fmt.Sprintf("three times the %s the test as it is took under go test, at least %s", took.Round(10*time.Millisecond), minTimeout)
}

// Bounds remembers the bound measured for each test, so that a caller
// confirming several bugs of one test (gosct test --confirm) builds and
// runs it unpatched once. The zero value is ready; it is safe for
// concurrent use.
type Bounds struct {
	mu sync.Mutex
	m  map[string]measured
}

type measured struct {
	bound time.Duration
	why   string
}

// boundKey names what a measure depends on: the package's directory,
// the test, and the build.
func (c *confirmer) boundKey() string {
	return strings.Join([]string{c.opts.Layout.Dir, c.test, c.opts.Tags, fmt.Sprint(c.opts.Race), strings.Join(c.opts.GoFlags, " ")}, "\x00")
}

// timeout is the bound of a run: the one measured before for the same
// test and build, if opts.Bounds has it, else autoTimeout's.
func (c *confirmer) timeout(ctx context.Context) (time.Duration, string) {
	b := c.opts.Bounds
	if b == nil {
		return c.autoTimeout(ctx)
	}
	key := c.boundKey()
	b.mu.Lock()
	m, ok := b.m[key]
	b.mu.Unlock()
	if ok {
		return m.bound, m.why
	}
	bound, why := c.autoTimeout(ctx)
	if ctx.Err() != nil {
		return bound, why // cut short: not a measure to keep
	}
	b.mu.Lock()
	if b.m == nil {
		b.m = map[string]measured{}
	}
	b.m[key] = measured{bound, why}
	b.mu.Unlock()
	return bound, why
}

// boundFor is the bound of a run of a test that took d unpatched.
func boundFor(d time.Duration) time.Duration {
	return max(minTimeout, (3 * d).Round(100*time.Millisecond))
}
