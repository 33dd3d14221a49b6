package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gosct/gosct/rewrite"
)

// TestPlainBuildsSaysNothingOnceInterrupted: a build stopped by the
// run's interrupt (--budget's end, ^C, a timeout) is no evidence that go
// test cannot build the package: "go test does not build it either" was
// printed for packages that build (Code-Hex/go-generics-cache).
func TestPlainBuildsSaysNothingOnceInterrupted(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m_test.go"), []byte("package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := &runner{ctx: ctx, tmp: t.TempDir(), build: &rewrite.Build{ModDir: dir}, gt: &goTestFlags{}}
	if why := r.plainBuilds(&rewrite.Package{ImportPath: "example.com/m"}); why != "" {
		t.Fatalf("plainBuilds after an interrupt = %q, want nothing", why)
	}
}
