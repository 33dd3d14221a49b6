package rewrite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests build against a pass-through stub of the runtime with the hook
// API of docs/design.md, so they do not depend on the state of runtime/;
// GOSCT_REAL_RUNTIME=1 uses the real one (embedded gosct.Source).
func init() {
	if os.Getenv("GOSCT_REAL_RUNTIME") == "" {
		runtimeSource = os.DirFS("testdata/stubgosct")
	}
}

func instrument(t *testing.T, dir string, patterns ...string) *Build {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Instrument(context.Background(), Options{Dir: abs, Patterns: patterns, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("Instrument(%s %v): %v", dir, patterns, err)
	}
	return b
}

// goCmd runs the go command in dir and returns its combined output.
func goCmd(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	// Pass-through mode: GOSCT_CONFIG unset.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOSCT_CONFIG=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func hasLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}
