package rewrite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// writer puts generated files into the cache under names derived from
// their content, so concurrent gosct runs never clash and an unchanged
// file is written once.
type writer struct {
	dir      string
	overlay  map[string]string     // original path -> replacement path
	deps     map[string]*depModule // instrumented dependency modules, by directory
	warnings []string
}

func newWriter(dir string) *writer {
	return &writer{dir: dir, overlay: map[string]string{}}
}

func hashOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// put stores content under the cache and returns its path. The base name
// is kept as a suffix so the file still ends in .go (or .mod).
func (w *writer) put(base string, content []byte) (string, error) {
	h := hashOf([]byte(base), content)
	dir := filepath.Join(w.dir, "files", h[:2])
	p := filepath.Join(dir, h+"-"+base)
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	return p, writeAtomic(p, content)
}

// writeAtomic writes through a temporary file and a rename, so a reader
// (a concurrent go build) never sees a partial file.
func writeAtomic(p string, content []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(content)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// writeOverlay writes the overlaid go.mod (unless the main module is gosct
// itself) and the overlay JSON.
func writeOverlay(b *Build, mod *module, w *writer) error {
	replaces, err := w.writeDeps()
	if err != nil {
		return err
	}
	b.Warnings = append(b.Warnings, w.warnings...)
	if mod.Path != gosctModule || len(replaces) > 0 {
		rt := ""
		if mod.Path != gosctModule {
			if rt, err = unpackRuntime(w.dir); err != nil {
				return err
			}
		}
		file, content := mod.GoMod, mod.Content
		edit := func(path string, orig []byte, rt string, replaces []replacement) ([]byte, error) {
			return overlayGoMod(path, orig, rt, replaces, mod.buildList)
		}
		if mod.Work != "" {
			file, content, edit = mod.Work, mod.WorkContent, overlayGoWork
		}
		data, err := edit(file, content, rt, replaces)
		if err != nil {
			return err
		}
		p, err := w.put(filepath.Base(file), data)
		if err != nil {
			return err
		}
		w.overlay[file] = p
	}
	if err := w.overlayDepGoMods(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{w.overlay}, "", "\t")
	if err != nil {
		return err
	}
	b.Overlay, err = w.put("overlay.json", data)
	return err
}

// runtimeSource is the source of gosct's module the runtime is unpacked
// from (gosct.Source, whose //go:embed lines are the one list of the
// packages it holds); tests substitute a stub.
var runtimeSource fs.FS = embeddedSource

// unpackRuntime copies the Go and assembly files (.s, .h: the runtime
// reads the goroutine pointer in assembly) of runtimeSource but its tests,
// with a generated go.mod, into a directory named after their content, and
// returns it.
func unpackRuntime(cache string) (string, error) {
	type file struct {
		name string
		data []byte
	}
	var files []file
	err := fs.WalkDir(runtimeSource, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !isSourceFile(e.Name()) {
			return err
		}
		data, err := fs.ReadFile(runtimeSource, p)
		files = append(files, file{p, data})
		return err
	})
	if err != nil {
		return "", fmt.Errorf("embedded gosct source: %v", err)
	}
	files = append(files, file{"go.mod", []byte("module " + gosctModule + "\n\ngo " + minGo + "\n")})
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	var parts [][]byte
	for _, f := range files {
		parts = append(parts, []byte(f.name), f.data)
	}
	dir := filepath.Join(cache, "runtime-"+hashOf(parts...))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(cache, ".runtime-*")
	if err != nil {
		return "", err
	}
	for _, f := range files {
		p := filepath.Join(tmp, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, f.data, 0o666); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		// A concurrent run unpacked the same content first.
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			return dir, nil
		}
		return "", err
	}
	return dir, nil
}

// isSourceFile reports the files of a package that its build reads.
func isSourceFile(name string) bool {
	switch path.Ext(name) {
	case ".go":
		return !strings.HasSuffix(name, "_test.go")
	case ".s", ".h":
		return true
	}
	return false
}

// ownPackages are the import paths of the packages gosct.Source holds.
var ownPackages = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	fs.WalkDir(embeddedSource, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && isSourceFile(e.Name()) {
			m[gosctModule+"/"+path.Dir(p)] = true
		}
		return err
	})
	return m
})
