package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/rewrite"
)

// What a trace says of the source it was recorded on, so that it replays
// in any checkout of the module and names the files that changed since:
// the module's path, and a hash of every instrumented file of the package
// by its path relative to the module root (no absolute path is needed).

// describePackage sets the module and the file hashes of pkg in cfg; the
// runtime writes them into traces and compares them in replays.
func (r *runner) describePackage(i int, pkg *rewrite.Package, cfg *wire.Config) {
	root, mod := moduleOf(pkg.Dir)
	if root == "" {
		return
	}
	cfg.Module = mod
	if r.files == nil {
		r.files = map[string]string{}
	}
	if p, ok := r.files[pkg.Dir]; ok {
		cfg.Files = p
		return
	}
	hashes := fileHashes(root, pkg)
	b, err := json.Marshal(hashes)
	if err != nil {
		return
	}
	p := filepath.Join(r.tmp, fmt.Sprintf("%d-files.json", i))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		r.rep.message("warning", pkg.ImportPath, "", "", "cannot record the file hashes: "+err.Error())
		return
	}
	r.files[pkg.Dir] = p
	cfg.Files = p
}

// fileHashes hashes the original files of pkg, keyed by their slash path
// relative to the module root.
func fileHashes(root string, pkg *rewrite.Package) map[string]string {
	out := map[string]string{}
	for orig := range pkg.Files {
		data, err := os.ReadFile(orig)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(root, orig)
		if err != nil {
			rel = filepath.Base(orig)
		}
		out[filepath.ToSlash(rel)] = hashFile(data)
	}
	return out
}

// hashFile is the hash of a file's content as traces record it.
func hashFile(data []byte) string {
	h := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(h[:12])
}

// moduleOf is the root directory and path of the module holding dir: the
// nearest go.mod above it; "" when there is none.
func moduleOf(dir string) (root, path string) {
	for d := dir; ; {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return d, goModPath(data)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", ""
		}
		d = parent
	}
}

// goModPath reads the module directive of a go.mod file.
func goModPath(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// findPackageDir looks for the directory of package importPath of module
// mod in a checkout: the module's root is a go.mod declaring mod, found in
// one of the starts or above it, or below it (a nested module, at most
// three levels down). "" when not found.
func findPackageDir(mod, importPath string, starts ...string) string {
	if mod == "" || (importPath != mod && !strings.HasPrefix(importPath, mod+"/")) {
		return ""
	}
	rel := filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(importPath, mod), "/"))
	ok := func(root string) string {
		d := filepath.Join(root, rel)
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
		return ""
	}
	for _, s := range starts {
		for d := s; ; {
			if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && goModPath(data) == mod {
				if p := ok(d); p != "" {
					return p
				}
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	for _, s := range starts {
		var roots []string
		filepath.WalkDir(s, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if de.IsDir() {
				name := de.Name()
				depth := strings.Count(strings.TrimPrefix(p, s), string(filepath.Separator))
				if p != s && (depth > 3 || strings.HasPrefix(name, ".") || name == "vendor" || name == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if de.Name() == "go.mod" {
				if data, err := os.ReadFile(p); err == nil && goModPath(data) == mod {
					roots = append(roots, filepath.Dir(p))
				}
			}
			return nil
		})
		sort.Strings(roots)
		for _, root := range roots {
			if p := ok(root); p != "" {
				return p
			}
		}
	}
	return ""
}
