package rewrite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// gosctModule is the module path of gosct itself: the instrumented code
// imports its runtime from it.
const gosctModule = "github.com/gosct/gosct"

// runtimeImport is the import path of the hook API.
const runtimeImport = gosctModule + "/runtime"

// module is the main module that go test runs in.
type module struct {
	Dir       string // directory holding go.mod
	Path      string // module path
	GoMod     string // path of go.mod
	Content   []byte // go.mod as on disk
	hasVendor bool
}

// findModule finds the one module containing the directories of all
// patterns: a relative pattern names a directory below Dir (so
// ./testprogs/... works from a parent module), an import path is resolved
// in Dir's module. Patterns spanning modules are a UserError: one Build
// is one go test invocation, which runs in one main module.
func findModule(dir string, patterns []string) (*module, error) {
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var starts []string
	for _, p := range patterns {
		if isLocalPattern(p) {
			start := p
			if !filepath.IsAbs(p) {
				start = filepath.Join(dir, patternDir(p))
			}
			starts = append(starts, start)
		}
	}
	if len(starts) == 0 {
		starts = []string{dir}
	}
	var found *module
	for _, start := range starts {
		m, err := moduleAt(start)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, userErrorf("%s: directory is not inside a Go module (no go.mod found in it or any parent)", start)
		}
		if found != nil && found.Dir != m.Dir {
			return nil, userErrorf("patterns span two modules (%s and %s): run gosct once per module", found.Dir, m.Dir)
		}
		found = m
	}
	return found, nil
}

func isLocalPattern(p string) bool {
	return p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p)
}

// patternDir is the directory part of a local pattern, before any "...".
func patternDir(p string) string {
	if i := strings.Index(p, "..."); i >= 0 {
		p = p[:i]
	}
	if p == "" {
		return "."
	}
	return filepath.FromSlash(p)
}

// moduleAt walks up from dir to the nearest go.mod; nil if there is none.
func moduleAt(dir string) (*module, error) {
	for d := dir; ; {
		gomod := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(gomod)
		if err == nil {
			m := &module{Dir: d, GoMod: gomod, Content: data, Path: modulePath(data)}
			if st, err := os.Stat(filepath.Join(d, "vendor")); err == nil && st.IsDir() {
				m.hasVendor = true
			}
			return m, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, nil
		}
		d = parent
	}
}

// modulePath reads the module directive of a go.mod file.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// overlayGoMod is go.mod with gosct's module required and replaced by the
// unpacked copy. Appending directives is valid go.mod syntax and keeps
// the user's file otherwise intact.
func overlayGoMod(orig []byte, runtimeDir string) []byte {
	var b bytes.Buffer
	b.Write(orig)
	if len(orig) > 0 && orig[len(orig)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n// added by gosct\nrequire %s v0.0.0-00010101000000-000000000000\nreplace %s => %s\n",
		gosctModule, gosctModule, quoteModPath(runtimeDir))
	return b.Bytes()
}

func quoteModPath(p string) string {
	if strings.ContainsAny(p, " \t\"'`") {
		return fmt.Sprintf("%q", p)
	}
	return p
}

// cacheDir resolves Options.CacheDir.
func cacheDir(dir string) (string, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory: %v (set --cache-dir)", err)
		}
		dir = filepath.Join(base, "gosct")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return dir, os.MkdirAll(dir, 0o777)
}
