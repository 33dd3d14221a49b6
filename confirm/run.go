package confirm

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// compile builds the test binary of the patched package with go test -c.
func (c *confirmer) compile(ctx context.Context, ps *patchSet, dir string) (string, error) {
	ov, err := ps.overlay(dir)
	if err != nil {
		return "", fmt.Errorf("writing the overlay: %w", err)
	}
	bin := dir + "/confirm.test"
	args := []string{"test", "-c", "-o", bin, "-overlay", ov}
	if c.opts.Race {
		args = append(args, "-race")
	}
	if c.opts.Tags != "" {
		args = append(args, "-tags", c.opts.Tags)
	}
	args = append(args, c.opts.GoFlags...)
	args = append(args, ".")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = c.opts.Layout.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go test -c of the patched package failed: %v\n%s", err, bytes.TrimSpace(out))
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("go test -c wrote no binary (the package has no tests?)")
	}
	return bin, nil
}

// runPattern is go test's -run for the trace's test.
func (c *confirmer) runPattern() string {
	p := "^" + regexp.QuoteMeta(c.test) + "$"
	if c.sub != "" {
		for _, s := range strings.Split(c.sub, "/") {
			p += "/^" + regexp.QuoteMeta(s) + "$"
		}
	}
	return p
}

// runAll runs the binary opts.Runs times, opts.Parallel at once, each run
// a process of its own as go test runs it (a deadlock ends its run at
// -timeout, not the others).
func (c *confirmer) runAll(ctx context.Context, bin string) []verdict {
	out := make([]verdict, c.opts.Runs)
	var wg sync.WaitGroup
	sem := make(chan struct{}, c.opts.Parallel)
	for i := range out {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = c.runOnce(ctx, bin)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	return out
}

func (c *confirmer) runOnce(ctx context.Context, bin string) verdict {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run="+c.runPattern(), "-test.count=1",
		"-test.timeout="+c.opts.Timeout.String(), "-test.v=true")
	cmd.Dir = c.opts.Layout.Dir
	// Not the command's GOSCT_CONFIG, if it runs under gosct: plain go test.
	cmd.Env = withoutEnv(os.Environ(), "GOSCT_CONFIG")
	out, err := cmd.CombinedOutput()
	return c.x.judge(string(out), err == nil)
}

func withoutEnv(env []string, name string) []string {
	out := env[:0:0]
	for _, e := range env {
		if !strings.HasPrefix(e, name+"=") {
			out = append(out, e)
		}
	}
	return out
}
