package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestMain makes the command's tests link each fixture of testdata once:
// most of them run gosct on the fake runtime of testdata/fakert, and the
// link of its test binary, the same each time, was most of their time.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gosct-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildTestBinary = reuseFixtureBuilds(buildTestBinary, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type builder = func(ctx context.Context, modDir, overlay string, flags []string, gt *goTestFlags, importPath, out string) ([]byte, error)

// reuseFixtureBuilds wraps build so that a build of a module under this
// package's testdata (which no test writes to) without an overlay, with
// the same flags and package as an earlier successful one, copies that
// binary, kept in dir.
func reuseFixtureBuilds(build builder, dir string) builder {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		return build
	}
	var mu sync.Mutex
	kept := map[string]string{}
	return func(ctx context.Context, modDir, overlay string, flags []string, gt *goTestFlags, importPath, out string) ([]byte, error) {
		if overlay != "" || !strings.HasPrefix(modDir, testdata+string(filepath.Separator)) {
			return build(ctx, modDir, overlay, flags, gt, importPath, out)
		}
		key := fmt.Sprintf("%q", append([]string{modDir, importPath, gt.tags, strings.Join(gt.build, "\x00")}, flags...))
		mu.Lock()
		bin, ok := kept[key]
		mu.Unlock()
		if ok && copyExecutable(bin, out) == nil {
			return nil, nil
		}
		b, err := build(ctx, modDir, overlay, flags, gt, importPath, out)
		if err != nil {
			return b, err
		}
		mu.Lock()
		defer mu.Unlock()
		bin = filepath.Join(dir, fmt.Sprintf("%d.test", len(kept)))
		if copyExecutable(out, bin) == nil {
			kept[key] = bin
		}
		return b, nil
	}
}

func copyExecutable(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}
