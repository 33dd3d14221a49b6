package rewrite

import (
	"context"
	"fmt"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
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
	// Work is the go.work file governing the module ("" in module
	// mode), WorkContent its content: see workspace.go.
	Work        string
	WorkContent []byte
	// buildList is the module's build list (go list -m all), filled in
	// only when the overlay raises a go line before 1.17: see
	// overlayGoMod.
	buildList []modVersion
}

// modVersion is one module of a build list.
type modVersion struct{ path, version string }

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
		work, err := workspaceOf(start)
		if err != nil {
			return nil, err
		}
		if work != "" && (m == nil || !inWorkspace(work, m.Dir)) {
			// The go command would not find the module either: in
			// workspace mode a directory belongs to a module of the
			// workspace or to none.
			var uses []string
			for _, u := range workspaceUses(work) {
				uses = append(uses, u.Path)
			}
			return nil, userErrorf("%s: directory is in the workspace of %s but not inside one of its modules (%s): run gosct in a module's directory, once per module", start, work, strings.Join(uses, ", "))
		}
		if m == nil {
			return nil, userErrorf("%s: directory is not inside a Go module (no go.mod found in it or any parent)", start)
		}
		if work != "" {
			m.Work = work
		}
		if found != nil && found.Dir != m.Dir {
			return nil, userErrorf("patterns span two modules (%s and %s): run gosct once per module", found.Dir, m.Dir)
		}
		found = m
	}
	if found.Work != "" {
		data, err := os.ReadFile(found.Work)
		if err != nil {
			return nil, userErrorf("workspace: %v", err)
		}
		found.WorkContent = data
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

// gosctVersion is the version gosct's module is required at: any
// version does, the replace directive points at the unpacked copy.
const gosctVersion = "v0.0.0-00010101000000-000000000000"

// overlayGoMod is the main module's go.mod with gosct's module required
// and replaced by the unpacked runtime (runtimeDir, "" for gosct's own
// module), and the instrumented dependency modules replaced by their
// copies. An existing requirement or replacement of gosct's module is
// updated rather than repeated.
func overlayGoMod(path string, orig []byte, runtimeDir string, replaces []replacement, buildList []modVersion) ([]byte, error) {
	f, err := modfile.Parse(path, orig, nil)
	if err != nil {
		return nil, userErrorf("%v", err)
	}
	if runtimeDir != "" {
		// A module may not require one with a newer go line (gosct's runtime
		// says go 1.21): an older main module is raised to go 1.21 in the
		// overlay, with a godebug default of its own version so that the
		// run-time behaviour the go line selects (panic(nil), ...) stays.
		if f.Go == nil || version.Compare("go"+f.Go.Version, "go"+minGo) < 0 {
			old := "1.16" // go.mod without a go line
			if f.Go != nil {
				old = f.Go.Version
			}
			if err := f.AddGoStmt(minGo); err != nil {
				return nil, err
			}
			if !hasGodebugDefault(f) {
				if err := f.AddGodebug("default", "go"+old); err != nil {
					return nil, err
				}
			}
			if version.Compare("go"+old, "go1.17") < 0 {
				requireAll(f, buildList)
			}
		}
		for _, r := range f.Replace {
			if r.Old.Path == gosctModule {
				if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
					return nil, err
				}
			}
		}
		if err := f.AddRequire(gosctModule, gosctVersion); err != nil {
			return nil, err
		}
		if err := f.AddReplace(gosctModule, "", runtimeDir, ""); err != nil {
			return nil, err
		}
	}
	for _, r := range replaces {
		if err := f.AddReplace(r.path, r.version, r.dir, ""); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return f.Format()
}

// requireAll requires every module of the build list that go.mod does not
// require yet, as an indirect requirement at its selected version. A
// go.mod before go 1.17 need not list the modules its dependencies bring
// in (the go command reads the whole module graph); from 1.17 on, the
// graph is pruned and every module providing a package must be listed,
// else go test stops with "updates to go.mod needed" (sony/gobreaker
// v1.0.0, go 1.12). Requiring each module at the version already selected
// leaves the build list as it was.
func requireAll(f *modfile.File, buildList []modVersion) {
	have := map[string]bool{}
	for _, r := range f.Require {
		have[r.Mod.Path] = true
	}
	for _, m := range buildList {
		if m.version == "" || have[m.path] || m.path == gosctModule {
			continue
		}
		have[m.path] = true
		f.AddNewRequire(m.path, m.version, true)
	}
}

// needsBuildList reports a go.mod the overlay raises from before go 1.17
// (overlayGoMod), which then needs the module's build list.
func needsBuildList(gomod []byte) bool {
	f, err := modfile.ParseLax("go.mod", gomod, nil)
	if err != nil {
		return false
	}
	return f.Go == nil || version.Compare("go"+f.Go.Version, "go1.17") < 0
}

// listBuildList runs go list -m all in the module, as the go command
// sees it before the overlay: the versions the user's go test builds
// with. An error leaves the list empty (the build then says what is
// wrong).
func listBuildList(ctx context.Context, dir string) []modVersion {
	cmd := exec.CommandContext(ctx, "go", "list", "-mod=readonly", "-m", "-f", "{{.Path}} {{.Version}}", "all")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var l []modVersion
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			l = append(l, modVersion{f[0], f[1]})
		}
	}
	return l
}

// minGo is the go line of the unpacked runtime's go.mod.
const minGo = "1.21"

func hasGodebugDefault(f *modfile.File) bool {
	for _, g := range f.Godebug {
		if g.Key == "default" {
			return true
		}
	}
	return false
}

// replacement replaces module path at version by directory dir.
type replacement struct{ path, version, dir string }

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
