package rewrite

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loaded is the result of loading: the packages whose files are rewritten.
type loaded struct {
	fset     *token.FileSet
	roots    map[string]bool       // import paths matched by the patterns
	deps     map[string]*depModule // dependency modules instrumented (Options.Deps), by path
	pkgs     []*packages.Package
	warnings []string
}

// listed is one line of the preliminary go list.
type listed struct {
	path    string
	depOnly bool
	main    bool // in the main module
	forTest string
	std     bool
	mod     depModule // the module of a package outside the main one
	err     string
}

// load lists the patterns with their dependencies (cheap: no compilation)
// to find the main-module packages involved, then loads those with
// syntax and types. Main-module packages imported by the tested ones are
// instrumented too: a mutex in a helper package is as much an interaction
// as one in the package under test.
func load(ctx context.Context, mod *module, o Options) (*loaded, error) {
	patterns, err := modulePatterns(mod, o)
	if err != nil {
		return nil, err
	}
	ld := &loaded{fset: token.NewFileSet(), roots: map[string]bool{}}
	cfg := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedTypes | packages.NeedTypesInfo |
			packages.NeedSyntax | packages.NeedModule | packages.NeedTypesSizes,
		Dir:   mod.Dir,
		Tests: true,
		Fset:  ld.fset,
	}
	if o.Tags != "" {
		cfg.BuildFlags = []string{"-tags=" + o.Tags}
	}
	// The dependency listing and the loading of the patterns run
	// concurrently: the second load (main-module dependencies outside the
	// patterns) is usually empty.
	type listResult struct {
		ls  []listed
		err error
	}
	lc := make(chan listResult, 1)
	go func() {
		ls, err := goList(ctx, mod.Dir, o.Tags, patterns)
		lc <- listResult{ls, err}
	}()
	pkgs, lerr := packages.Load(cfg, patterns...)
	lr := <-lc
	if lr.err != nil {
		return nil, lr.err
	}
	if lerr != nil {
		return nil, fmt.Errorf("loading packages: %v", lerr)
	}
	have := map[string]bool{}
	for _, p := range pkgs {
		have[p.PkgPath] = true
	}
	var extra []string
	seen := map[string]bool{}
	for _, l := range lr.ls {
		if l.forTest != "" || strings.HasSuffix(l.path, ".test") {
			continue
		}
		if !l.depOnly {
			if l.err != "" {
				return nil, userErrorf("%s", l.err)
			}
			ld.roots[l.path] = true
		} else if l.main && !have[l.path] && !seen[l.path] && !isGosctOwn(l.path) {
			seen[l.path] = true
			extra = append(extra, l.path)
		} else if o.Deps && !l.main && !l.std && l.mod.Path != "" && l.mod.Path != gosctModule && !seen[l.path] {
			seen[l.path] = true
			extra = append(extra, l.path)
			if ld.deps == nil {
				ld.deps = map[string]*depModule{}
			}
			if ld.deps[l.mod.Path] == nil {
				m := l.mod
				ld.deps[m.Path] = &m
			}
		}
	}
	if len(ld.roots) == 0 {
		return nil, userErrorf("pattern %s matched no packages", strings.Join(o.Patterns, " "))
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		cfg.Tests = false
		more, err := packages.Load(cfg, extra...)
		if err != nil {
			return nil, fmt.Errorf("loading packages: %v", err)
		}
		pkgs = append(pkgs, more...)
	}
	roots := ld.roots
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") || isGosctOwn(p.PkgPath) {
			continue
		}
		if len(p.Errors) > 0 {
			if roots[p.PkgPath] {
				return nil, compileError(p)
			}
			ld.warnings = append(ld.warnings, fmt.Sprintf("%s: not instrumented: %s", p.ID, p.Errors[0]))
			continue
		}
		ld.pkgs = append(ld.pkgs, p)
	}
	return ld, nil
}

// isGosctOwn reports packages that are gosct's runtime: instrumenting the
// runtime with its own hooks would recurse.
func isGosctOwn(path string) bool {
	return ownPackages()[path]
}

// compileError turns the errors of a package into a UserError naming the
// user's file:line.
func compileError(p *packages.Package) error {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s does not compile:", p.PkgPath)
	for i, e := range p.Errors {
		if i == 10 {
			fmt.Fprintf(&b, "\n\t... and %d more", len(p.Errors)-i)
			break
		}
		if e.Pos != "" && e.Pos != "-" {
			fmt.Fprintf(&b, "\n\t%s: %s", e.Pos, e.Msg)
		} else {
			fmt.Fprintf(&b, "\n\t%s", e.Msg)
		}
	}
	return &UserError{Msg: b.String()}
}

// modulePatterns makes local patterns relative to the module directory,
// where go list runs.
func modulePatterns(mod *module, o Options) ([]string, error) {
	var out []string
	for _, p := range o.Patterns {
		if !isLocalPattern(p) {
			out = append(out, p)
			continue
		}
		abs := p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(o.Dir, p)
		}
		rest := ""
		if strings.HasSuffix(abs, "...") {
			rest = "..."
			abs = strings.TrimSuffix(abs, "...")
		}
		abs = filepath.Clean(abs)
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, userErrorf("pattern %s: directory %s does not exist", p, abs)
		}
		rel, err := filepath.Rel(mod.Dir, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, userErrorf("pattern %s is outside module %s", p, mod.Dir)
		}
		rel = "./" + filepath.ToSlash(rel)
		if rest != "" {
			rel = strings.TrimSuffix(rel, "/") + "/" + rest
			rel = strings.Replace(rel, "/./...", "/...", 1)
		}
		out = append(out, rel)
	}
	if len(out) == 0 {
		out = []string{"."}
	}
	return out, nil
}

// goList runs go list -deps -test over the patterns.
func goList(ctx context.Context, dir, tags string, patterns []string) ([]listed, error) {
	args := []string{"list", "-e", "-deps", "-test",
		"-f", "{{.ImportPath}}\t{{.DepOnly}}\t{{with .Module}}{{.Main}}{{end}}\t{{.ForTest}}\t{{.Standard}}\t" +
			"{{with .Module}}{{.Path}}{{end}}\t{{with .Module}}{{.Version}}{{end}}\t{{with .Module}}{{.Dir}}{{end}}\t" +
			"{{with .Module}}{{if .Replace}}{{.Replace.Path}}{{end}}{{end}}\t{{with .Error}}{{.Err}}{{end}}"}
	if tags != "" {
		args = append(args, "-tags="+tags)
	}
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, userErrorf("go list %s: %s", strings.Join(patterns, " "), msg)
	}
	var out []listed
	for _, line := range strings.Split(stdout.String(), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 10 {
			continue
		}
		out = append(out, listed{path: f[0], depOnly: f[1] == "true", main: f[2] == "true", forTest: f[3],
			std: f[4] == "true", mod: depModule{Path: f[5], Version: f[6], Dir: f[7], Replace: f[8]},
			err: strings.ReplaceAll(strings.Join(f[9:], "\t"), "\n", "; ")})
	}
	return out, nil
}

// isDep reports a package of a dependency module (Options.Deps).
func (ld *loaded) isDep(p *packages.Package) bool {
	return p.Module != nil && !p.Module.Main
}
