package rewrite

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func wantUserError(t *testing.T, err error, parts ...string) {
	t.Helper()
	var ue *UserError
	if !errors.As(err, &ue) {
		t.Fatalf("got error %v (%T), want a *UserError", err, err)
	}
	for _, p := range parts {
		if !strings.Contains(ue.Msg, p) {
			t.Errorf("message %q does not contain %q", ue.Msg, p)
		}
	}
}

func TestUserErrors(t *testing.T) {
	ctx := context.Background()
	golden, _ := filepath.Abs("testdata/golden")
	broken, _ := filepath.Abs("testdata/broken")
	outside := t.TempDir()
	if _, err := os.Stat(filepath.Join(filepath.Dir(outside), "go.mod")); err == nil {
		t.Skip("temporary directory is inside a module")
	}
	cache := t.TempDir()

	_, err := Instrument(ctx, Options{Dir: golden, Patterns: []string{"./nothing/..."}, CacheDir: cache})
	wantUserError(t, err, "./nothing/...")

	_, err = Instrument(ctx, Options{Dir: golden, Patterns: []string{"./nosuchdir"}, CacheDir: cache})
	wantUserError(t, err, "nosuchdir")

	_, err = Instrument(ctx, Options{Dir: outside, Patterns: []string{"./..."}, CacheDir: cache})
	wantUserError(t, err, outside, "not inside a Go module")

	_, err = Instrument(ctx, Options{Dir: broken, Patterns: []string{"./bad"}, CacheDir: cache})
	wantUserError(t, err, filepath.Join(broken, "bad", "bad.go")+":4:", "does not compile")
}

// TestNestedModule instruments a module below the working directory by a
// relative pattern, as ./testprogs/... from the repository root.
func TestNestedModule(t *testing.T) {
	b := instrument(t, "testdata", "./golden/chans")
	want, _ := filepath.Abs("testdata/golden")
	if b.ModDir != want || len(b.Packages) != 1 || b.Packages[0].ImportPath != "example.com/golden/chans" {
		t.Fatalf("ModDir %s, packages %+v", b.ModDir, b.Packages)
	}
	_, err := Instrument(context.Background(), Options{Dir: "testdata", Patterns: []string{"./golden/chans", "./broken/bad"}, CacheDir: t.TempDir()})
	wantUserError(t, err, "span two modules")
}

// lineOf finds the line of the file holding marker.
func lineOf(t *testing.T, file, marker string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			return itoa(i + 1)
		}
	}
	t.Fatalf("%s: no %s", file, marker)
	return ""
}

// TestPanicNamesUserLine checks the //line directives: a panic in
// instrumented code is reported at the user's file and line, also below
// an import the rewriting left unused (panicsunused).
func TestPanicNamesUserLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented code with go (the whole suite runs it)")
	}
	for _, pkg := range []string{"panics", "panicsunused"} {
		b := instrument(t, "testdata/passthru", "./"+pkg)
		out, err := goCmd(t, b.ModDir, "test", "-count=1", "-overlay="+b.Overlay, "./"+pkg)
		if err == nil {
			t.Fatalf("%s: the panicking test passed:\n%s", pkg, out)
		}
		line := lineOf(t, "testdata/passthru/"+pkg+"/panics.go", "PANICLINE")
		want := regexp.MustCompile(`passthru/` + pkg + `/panics\.go:` + line + `\b`)
		if !want.MatchString(out) {
			t.Errorf("%s: stack does not name panics.go:%s:\n%s", pkg, line, out)
		}
		if strings.Contains(out, "gosct/files/") {
			t.Errorf("%s: stack names a generated file:\n%s", pkg, out)
		}
	}
}

// TestCompileErrorNamesUserLine builds against a runtime without the
// Lock hook: the compile error must name the user's file and line.
func TestCompileErrorNamesUserLine(t *testing.T) {
	stub, err := os.ReadFile("testdata/stubgosct/runtime/stub.go")
	if err != nil {
		t.Fatal(err)
	}
	src := regexp.MustCompile(`(?m)^func Lock\(.*$`).ReplaceAllString(string(stub), "")
	fsys := fstest.MapFS{
		"runtime/stub.go":    {Data: []byte(src)},
		"strategies/s.go":    {Data: []byte("package strategies\n")},
		"replay/r.go":        {Data: []byte("package replay\n")},
		"internal/wire/w.go": {Data: []byte("package wire\n")},
	}
	old := runtimeSource
	runtimeSource = fsys
	defer func() { runtimeSource = old }()
	b := instrument(t, "testdata/passthru", "./panics")
	out, err := goCmd(t, b.ModDir, "build", "-overlay="+b.Overlay, "./panics")
	if err == nil {
		t.Fatalf("build without gosct.Lock succeeded")
	}
	line := lineOf(t, "testdata/passthru/panics/panics.go", "mu.Lock()")
	if !regexp.MustCompile(`panics\.go:` + line + `(:\d+)?: undefined: gosct\.Lock`).MatchString(out) {
		t.Fatalf("error does not name panics.go:%s:\n%s", line, out)
	}
}

// TestDependencyInstrumented: a main-module package imported by the
// tested one is instrumented, though no pattern names it.
func TestDependencyInstrumented(t *testing.T) {
	b := instrument(t, "testdata/passthru", "./user")
	data, err := os.ReadFile(b.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	helper, _ := filepath.Abs("testdata/passthru/helper/helper.go")
	if !strings.Contains(string(data), helper) {
		t.Fatalf("overlay does not replace %s:\n%s", helper, data)
	}
	if len(b.Packages) != 1 || b.Packages[0].ImportPath != "example.com/passthru/user" || len(b.Packages[0].Tests) != 1 {
		t.Fatalf("packages: %+v", b.Packages)
	}
}

// TestCgoFileLeftAlone: a file importing "C" is not instrumented (its
// compiled form is generated by cgo), with a warning; the package's other
// files are, and the tests still pass.
func TestCgoFileLeftAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented code with go (the whole suite runs it)")
	}
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo disabled")
	}
	b := instrument(t, "testdata/cgo", "./...")
	cfile, _ := filepath.Abs("testdata/cgo/mixed/c.go")
	gfile, _ := filepath.Abs("testdata/cgo/mixed/g.go")
	if len(b.Warnings) != 1 || !strings.HasPrefix(b.Warnings[0], cfile+": not instrumented: uses cgo") {
		t.Errorf("warnings: %q", b.Warnings)
	}
	p := b.Packages[0]
	if _, ok := p.Files[cfile]; ok {
		t.Errorf("cgo file rewritten")
	}
	if _, ok := p.Files[gfile]; !ok {
		t.Errorf("pure Go file of a cgo package not rewritten: %v", p.Files)
	}
	out, err := goCmd(t, b.ModDir, append([]string{"test", "-count=1", "-overlay=" + b.Overlay}, append(b.Flags, "./...")...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestOverlayGoMod: gosct's module is required and replaced once, even
// when the user's go.mod already mentions it.
func TestOverlayGoMod(t *testing.T) {
	orig := "module example.com/m\n\ngo 1.21\n\nrequire github.com/gosct/gosct v1.2.3\n\nreplace github.com/gosct/gosct => ../elsewhere\n"
	got, err := overlayGoMod("go.mod", []byte(orig), "/cache/rt", []replacement{{"golang.org/x/sync", "v0.24.0", "/cache/deps/sync"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{
		"require github.com/gosct/gosct v0.0.0-00010101000000-000000000000",
		"replace github.com/gosct/gosct => /cache/rt",
		"replace golang.org/x/sync v0.24.0 => /cache/deps/sync",
	} {
		if strings.Count(s, want) != 1 {
			t.Errorf("want %q once in\n%s", want, s)
		}
	}
	if strings.Contains(s, "elsewhere") || strings.Contains(s, "v1.2.3") {
		t.Errorf("old requirement or replacement kept:\n%s", s)
	}
	if _, err := overlayGoMod("go.mod", []byte("modul x"), "/rt", nil, nil); err == nil {
		t.Errorf("a go.mod that does not parse is accepted")
	}
}

// TestUnpackRuntime: the unpacked runtime has the non-test Go and assembly
// files of the four directories and a go.mod, and no test files.
func TestUnpackRuntime(t *testing.T) {
	fsys := fstest.MapFS{
		"runtime/a.go":        {Data: []byte("package runtime\n")},
		"runtime/a_test.go":   {Data: []byte("package runtime\n")},
		"runtime/g_amd64.s":   {Data: []byte("#include \"textflag.h\"\n")},
		"runtime/README.md":   {Data: []byte("x")},
		"strategies/s.go":     {Data: []byte("package strategies\n")},
		"replay/r.go":         {Data: []byte("package replay\n")},
		"internal/wire/w.go":  {Data: []byte("package wire\n")},
		"internal/wire/w2.go": {Data: []byte("package wire\n")},
	}
	old := runtimeSource
	runtimeSource = fsys
	defer func() { runtimeSource = old }()
	cache := t.TempDir()
	dir, err := unpackRuntime(cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"go.mod", "runtime/a.go", "runtime/g_amd64.s", "strategies/s.go", "replay/r.go", "internal/wire/w2.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	for _, f := range []string{"runtime/a_test.go", "runtime/README.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("unpacked %s", f)
		}
	}
	again, err := unpackRuntime(cache)
	if err != nil || again != dir {
		t.Errorf("second unpack: %s %v, want %s", again, err, dir)
	}
}

// TestOverlayGoModOldGoLine: a main module older than the runtime's go
// line is raised to it, keeping its GODEBUG defaults.
func TestOverlayGoModOldGoLine(t *testing.T) {
	got, err := overlayGoMod("go.mod", []byte("module example.com/m\n\ngo 1.16\n"), "/cache/rt", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go 1.21\n", "godebug default=go1.16\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("want %q in\n%s", want, got)
		}
	}
}
