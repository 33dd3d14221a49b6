// Package testbin builds instrumented test binaries and runs them (Cmd:
// the configuration in, the events of the results file out), for the gosct
// command and the corpus benchmark alike.
package testbin

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
)

// Build runs `go test -c -o out` for importPath in modDir, with the
// rewriter's overlay and the given flags (the rewriter's Build.Flags, then
// the user's build flags). The output of a failed build names the user's
// files: the rewriter emits //line directives.
func Build(ctx context.Context, modDir, overlay string, flags []string, importPath, out string) ([]byte, error) {
	args := []string{"test", "-c", "-o", out}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	args = append(args, flags...)
	args = append(args, importPath)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = modDir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.Bytes(), err
}

// EnvWithout returns env without the variable name, so that a binary's
// configuration comes only from what the caller sets.
func EnvWithout(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
