package rewrite

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go/version"

	"golang.org/x/mod/modfile"
)

// A go.work file governing the main module puts the go command in
// workspace mode: it ignores the require and replace directives gosct
// adds to an overlaid go.mod when resolving imports from the other
// modules of the workspace (their instrumented files import gosct's
// runtime too). In workspace mode gosct overlays the go.work file
// instead: the unpacked runtime becomes one more module of the workspace
// (use), and the instrumented dependency copies are replaced there. The
// user's go.work is never written, like their go.mod.

// workspaceOf is the go.work file governing dir ("" in module mode:
// none, or GOWORK=off).
func workspaceOf(dir string) (string, error) {
	// A pattern may name a directory that does not exist (reported
	// later): ask from the nearest one that does.
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOWORK: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	w := strings.TrimSpace(string(out))
	if w == "off" {
		return "", nil
	}
	return w, nil
}

// workspaceUses lists the use directives of a go.work.
func workspaceUses(work string) []*modfile.Use {
	data, err := os.ReadFile(work)
	if err != nil {
		return nil
	}
	f, err := modfile.ParseWork(work, data, nil)
	if err != nil {
		return nil
	}
	return f.Use
}

// inWorkspace reports whether the module in dir is one the go.work uses.
func inWorkspace(work, dir string) bool {
	for _, u := range workspaceUses(work) {
		d := u.Path
		if !filepath.IsAbs(d) {
			d = filepath.Join(filepath.Dir(work), d)
		}
		if filepath.Clean(d) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}

// overlayGoWork is the go.work file with the runtime (runtimeDir, "" for
// none) used as a module of the workspace and the dependency copies
// replaced. A use of another copy of gosct's module, or a replacement of
// it, is dropped: a workspace may hold a module path once.
func overlayGoWork(path string, orig []byte, runtimeDir string, replaces []replacement) ([]byte, error) {
	f, err := modfile.ParseWork(path, orig, nil)
	if err != nil {
		return nil, userErrorf("%v", err)
	}
	if runtimeDir != "" {
		if f.Go == nil || version.Compare("go"+f.Go.Version, "go"+minGo) < 0 {
			// Every module of a workspace must have a go line no newer
			// than the workspace's; the godebug default keeps the
			// run-time behaviour the old go line selected.
			old := "1.18"
			if f.Go != nil {
				old = f.Go.Version
			}
			if err := f.AddGoStmt(minGo); err != nil {
				return nil, err
			}
			hasDefault := false
			for _, g := range f.Godebug {
				hasDefault = hasDefault || g.Key == "default"
			}
			if !hasDefault {
				if err := f.AddGodebug("default", "go"+old); err != nil {
					return nil, err
				}
			}
		}
		base := filepath.Dir(path)
		for _, u := range f.Use {
			dir := u.Path
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(base, dir)
			}
			if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modulePath(data) == gosctModule {
				if err := f.DropUse(u.Path); err != nil {
					return nil, err
				}
			}
		}
		for _, r := range f.Replace {
			if r.Old.Path == gosctModule {
				if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
					return nil, err
				}
			}
		}
		if err := f.AddUse(runtimeDir, gosctModule); err != nil {
			return nil, err
		}
	}
	for _, r := range replaces {
		if err := f.AddReplace(r.path, r.version, r.dir, ""); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return modfile.Format(f.Syntax), nil
}
