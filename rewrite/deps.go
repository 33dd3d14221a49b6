package rewrite

import (
	"context"
	"fmt"
	"go/version"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// depModule is a dependency module whose packages are instrumented.
type depModule struct {
	Path, Version, Dir string
	Replace            string            // the path it is replaced by in go.mod, if any
	copied             bool              // in the module cache: copied out and replaced
	overlaid           bool              // not copied, and files of it are overlaid
	files              map[string][]byte // path relative to Dir -> rewritten source
}

// prepareDeps decides how each dependency module is instrumented: files
// of a module outside the module cache (replaced by a local directory)
// are overlaid like the main module's; a module in the cache, which
// overlays may not touch, is copied out and replaced in go.mod. A module
// already replaced by another module version cannot be replaced again.
func (w *writer) prepareDeps(ctx context.Context, mod *module, deps map[string]*depModule) error {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %v", err)
	}
	modcache := strings.TrimSpace(string(out))
	w.deps = map[string]*depModule{}
	for _, m := range deps {
		if m.Dir == "" {
			continue
		}
		inCache := modcache != "" && strings.HasPrefix(m.Dir, modcache+string(filepath.Separator))
		if inCache && m.Replace != "" {
			w.warnings = append(w.warnings, fmt.Sprintf("module %s: not instrumented: replaced by %s in go.mod", m.Path, m.Replace))
			continue
		}
		m.copied = inCache
		m.files = map[string][]byte{}
		w.deps[m.Dir] = m
	}
	return nil
}

// depFor is the copied dependency module holding file name, or nil.
func (w *writer) depFor(name string) (*depModule, string) {
	for dir, m := range w.deps {
		if m.copied && strings.HasPrefix(name, dir+string(filepath.Separator)) {
			rel, _ := filepath.Rel(dir, name)
			return m, rel
		}
	}
	return nil, ""
}

// markOverlaid notes that file name, overlaid, belongs to a dependency
// module that is not copied (replaced by a local directory).
func (w *writer) markOverlaid(name string) {
	for dir, m := range w.deps {
		if !m.copied && strings.HasPrefix(name, dir+string(filepath.Separator)) {
			m.overlaid = true
		}
	}
}

// overlayDepGoMods overlays the go.mod of every dependency module whose
// files are overlaid in place, with its go line raised (raiseGoLine).
func (w *writer) overlayDepGoMods() error {
	for dir, m := range w.deps {
		if !m.overlaid {
			continue
		}
		gomod := filepath.Join(dir, "go.mod")
		data, err := os.ReadFile(gomod)
		if err != nil {
			continue // no go.mod: the go command synthesizes one for a replacement
		}
		out, raised, err := raiseGoLine(gomod, data)
		if err != nil {
			return fmt.Errorf("module %s: %v", m.Path, err)
		}
		if !raised {
			continue
		}
		p, err := w.put("go.mod", out)
		if err != nil {
			return err
		}
		w.overlay[gomod] = p
	}
	return nil
}

// skipDep reports a file of a dependency module that is not to be
// instrumented (its module was left alone).
func (w *writer) skipDep(name string, isDep bool) bool {
	if !isDep {
		return false
	}
	for dir := range w.deps {
		if strings.HasPrefix(name, dir+string(filepath.Separator)) {
			return false
		}
	}
	return true
}

// writeDeps copies each copied module with its rewritten files into a
// directory named after the module and the rewriting, and returns the
// replacements for go.mod.
func (w *writer) writeDeps() ([]replacement, error) {
	var replaces []replacement
	var dirs []string
	for d := range w.deps {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		m := w.deps[d]
		if !m.copied || len(m.files) == 0 {
			continue
		}
		var rels []string
		for rel := range m.files {
			rels = append(rels, rel)
		}
		sort.Strings(rels)
		// "go-line": copies made since the go line is raised (copyModule)
		// are not the copies made before.
		parts := [][]byte{[]byte(m.Path + "@" + m.Version + " go-line")}
		for _, rel := range rels {
			parts = append(parts, []byte(rel), m.files[rel])
		}
		dst := filepath.Join(w.dir, "deps", sanitize(m.Path)+"@"+sanitize(m.Version)+"-"+hashOf(parts...))
		if _, err := os.Stat(dst); err != nil {
			if err := copyModule(m, dst, w.dir); err != nil {
				return nil, fmt.Errorf("copying module %s: %v", m.Path, err)
			}
		}
		replaces = append(replaces, replacement{m.Path, m.Version, dst})
	}
	return replaces, nil
}

// copyModule copies the module's tree (all files: embedded and testdata
// files are read at build and run time) with the rewritten files in place,
// through a temporary directory renamed at the end.
func copyModule(m *depModule, dst, cache string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".copy-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, p)
		target := filepath.Join(tmp, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o777)
		}
		data, ok := m.files[rel]
		if !ok {
			if data, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		return os.WriteFile(target, data, 0o666)
	})
	if err != nil {
		return err
	}
	gomod := filepath.Join(tmp, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		// A module without go.mod: a replacement directory needs one.
		data = []byte("module " + m.Path + "\n")
	}
	if data, _, err = raiseGoLine(gomod, data); err != nil {
		return fmt.Errorf("%s: %v", m.Path, err)
	}
	if err := os.WriteFile(gomod, data, 0o666); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, serr := os.Stat(dst); serr == nil {
			return nil // a concurrent run made the same copy
		}
		return err
	}
	return nil
}

// raiseGoLine raises the go line of an instrumented dependency's go.mod to
// minGo when it says less (or nothing): the hooks are generic functions,
// called with inferred type arguments, which the compiler refuses below
// go1.18 ("implicit function instantiation requires go1.18 or later").
// Raising the language version to 1.21 changes the meaning of no program
// that compiled before: what changed between 1.13 and 1.21 only adds to
// the language (generics, min and max, which a package's own declarations
// shadow), and the change that alters meaning, per-iteration loop
// variables, comes with go1.22, which is not reached; the rewriter
// already follows the module's own version for loops it generates. The
// run-time behaviour a go line selects (GODEBUG defaults) is the main
// module's, not a dependency's.
func raiseGoLine(path string, data []byte) ([]byte, bool, error) {
	f, err := modfile.ParseLax(path, data, nil)
	if err != nil {
		return nil, false, err
	}
	if f.Go != nil && version.Compare("go"+f.Go.Version, "go"+minGo) >= 0 {
		return data, false, nil
	}
	if err := f.AddGoStmt(minGo); err != nil {
		return nil, false, err
	}
	out, err := f.Format()
	return out, true, err
}
