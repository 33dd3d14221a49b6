// Package rewrite instruments unmodified Go packages and their tests for
// gosct. It loads the packages with full type information, rewrites every
// operation through which goroutines interact into a call of the gosct
// runtime (the hook API of docs/design.md), and describes the result as a
// `go test -overlay` file, so the user's tree is never written.
//
// The rules (what is rewritten and why) are in docs/rewrite.md.
package rewrite

import (
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/packages"
)

// Options says what to instrument.
type Options struct {
	// Dir is the user's working directory; patterns are relative to it.
	Dir string
	// Patterns are as for go test: ./pkg, ./..., import paths.
	Patterns []string
	// Tags is the -tags value passed to go list and go test; may be "".
	Tags string
	// Deps also instruments the packages of dependency modules (not the
	// standard library): go's overlays cannot replace files in the module
	// cache, so those modules are copied out of it, rewritten, and
	// replaced in the overlaid go.mod.
	Deps bool
	// CacheDir is where overlay files and the unpacked runtime go;
	// "" means os.UserCacheDir()/gosct.
	CacheDir string
	// Analyze, when set, is called once the packages are loaded and
	// type-checked, before they are rewritten (the rewriter changes
	// their syntax trees in place): a static analysis of the user's
	// code (package static) runs there without loading it again. Its
	// error stops Instrument.
	Analyze func(*Loaded) error
}

// Loaded is the user's code as Instrument loaded it, before any change.
type Loaded struct {
	Fset *token.FileSet
	// Packages are the packages to be instrumented, test variants
	// included, with syntax and types (their dependencies outside them
	// have types only).
	Packages []*packages.Package
	// Roots are the import paths the patterns matched.
	Roots map[string]bool
	// CacheDir is the directory the instrumented build's files go to.
	CacheDir string
}

// Build is an instrumented build, ready for go test.
type Build struct {
	// Overlay is the path of the overlay JSON to pass as go test -overlay.
	Overlay string
	// ModDir is the directory of the main module: run go test there.
	ModDir string
	// Packages are the instrumented packages matched by the patterns.
	Packages []*Package
	// Warnings has one line for each file left uninstrumented, and why.
	Warnings []string
	// Flags must be passed to go test along with -overlay (for example
	// -mod=mod when the module has a vendor directory, which cannot hold
	// the gosct runtime).
	Flags []string
}

// Package is one instrumented package.
type Package struct {
	ImportPath string
	Dir        string
	// Files maps each original file path to its rewritten file path.
	Files map[string]string
	// Tests are the names of the Test functions wrapped with gosct.Test.
	Tests []string
	// Points are the scheduling points inserted in the package's files
	// (its tests' included), for the coverage report.
	Points []Point
}

// UserError is returned for bad input: no package matched, a directory
// outside any module, a package that does not compile. Its message names
// the user's file:line or pattern; the command exits with status 2.
type UserError struct{ Msg string }

// Error returns the message.
func (e *UserError) Error() string { return e.Msg }

func userErrorf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...)}
}

// Instrument loads the packages matched by o.Patterns (with their tests),
// rewrites them and the main-module packages they import, and writes the
// overlay. Patterns must all lie in one module.
func Instrument(ctx context.Context, o Options) (*Build, error) {
	if o.Dir == "" {
		o.Dir = "."
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	o.Dir = dir
	mod, err := findModule(o.Dir, o.Patterns)
	if err != nil {
		return nil, err
	}
	cache, err := cacheDir(o.CacheDir)
	if err != nil {
		return nil, err
	}
	ld, err := load(ctx, mod, o)
	if err != nil {
		return nil, err
	}
	if mod.Work == "" && mod.Path != gosctModule && needsBuildList(mod.Content) {
		mod.buildList = listBuildList(ctx, mod.Dir)
	}
	if o.Analyze != nil {
		if err := o.Analyze(&Loaded{Fset: ld.fset, Packages: ld.pkgs, Roots: ld.roots, CacheDir: cache}); err != nil {
			return nil, err
		}
	}
	// Vetting instrumented code checks gosct's rewriting, not the user's
	// code (and is not cached for overlaid packages).
	b := &Build{ModDir: mod.Dir, Warnings: ld.warnings, Flags: []string{"-vet=off"}}
	switch {
	case mod.Work != "":
		// Workspace mode ignores the modules' vendor directories and
		// refuses -mod=mod; a workspace's own vendor directory
		// (go work vendor) lacks the runtime.
		if st, err := os.Stat(filepath.Join(filepath.Dir(mod.Work), "vendor")); err == nil && st.IsDir() {
			b.Flags = append(b.Flags, "-mod=readonly")
		}
	case mod.hasVendor:
		b.Flags = append(b.Flags, "-mod=mod")
	}
	w := newWriter(cache)
	if len(ld.deps) > 0 {
		if err := w.prepareDeps(ctx, mod, ld.deps); err != nil {
			return nil, err
		}
	}
	if err := instrumentAll(ld, b, w); err != nil {
		return nil, err
	}
	if err := writeOverlay(b, mod, w); err != nil {
		return nil, err
	}
	return b, nil
}
