package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"go/version"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"
)

// fileRewriter rewrites one file. It walks the syntax once with
// astutil.Apply: pre marks the context of nodes (an operand of & is not a
// read; the operations of a select's cases are rewritten by the select),
// post replaces nodes bottom-up, so a node is rewritten after its
// children.
type fileRewriter struct {
	fset    *token.FileSet
	pkg     *types.Package
	info    *types.Info
	file    *ast.File
	alias   string // local name of the runtime import
	modPath string
	// oldLoopVars: the file's Go version is before go1.22, when a loop's
	// variables were shared by all iterations.
	oldLoopVars bool
	used        bool // a hook was emitted
	edited      bool // the file was changed otherwise (a directive made a comment)
	// clocks are the package's linknamed clocks (linkname.go): local
	// name -> target.
	clocks map[string]string

	sharedLocals map[*types.Var]bool
	pipeCalls    map[*ast.CallExpr]string // pipes.go
	noRead       map[ast.Expr]bool        // address contexts: not a read
	shadowRead   map[ast.Expr]bool        // reads on the way to another access: shadow-only
	callee       map[ast.Expr]bool        // the Fun of a call
	skip         map[ast.Node]bool        // rewritten by an enclosing node
	tv           map[ast.Expr]types.TypeAndValue
	orig         map[ast.Expr]ast.Expr // a node that replaced one -> the original
	hooks        map[*ast.CallExpr]bool
	atomicPre    map[*ast.CallExpr]*ast.CallExpr // atomic call -> its scheduling point, put before its statement
	labelInside  map[*ast.BlockStmt]int          // generated block -> index of the statement a label belongs to
	importNames  map[string]string               // package path -> local name, existing and added
	added        map[string]string               // imports added for type expressions
	pkgNameUsed  map[string]bool                 // names generated type expressions use
	tests        []string
	points       []Point               // the scheduling points inserted (points.go)
	pointAt      map[*ast.CallExpr]int // hook call -> its point
	gotoLabels   map[string]bool       // labels some goto of the file targets
	breakLabels  map[string]bool       // labels some break or continue targets

	testingTType types.Type // *testing.T, once testingT looked it up
	testingTDone bool

	// Access sites (sites.go), and the source they are cut from.
	sites     []siteKey
	siteIndex map[siteKey]int
	sitesName string
	src       []byte
	srcRead   bool
	// funcs are the function types enclosing the node being visited.
	funcs []*ast.FuncType
	// returned holds each return statement's result expressions as
	// written, before their own hooks replace them (returnsItself).
	returned map[*ast.ReturnStmt][]ast.Expr
}

func newFileRewriter(fset *token.FileSet, p *packages.Package, f *ast.File, clocks map[string]string) *fileRewriter {
	r := &fileRewriter{
		fset: fset, pkg: p.Types, info: p.TypesInfo, file: f, clocks: clocks,
		noRead:      map[ast.Expr]bool{},
		shadowRead:  map[ast.Expr]bool{},
		callee:      map[ast.Expr]bool{},
		skip:        map[ast.Node]bool{},
		tv:          map[ast.Expr]types.TypeAndValue{},
		orig:        map[ast.Expr]ast.Expr{},
		hooks:       map[*ast.CallExpr]bool{},
		atomicPre:   map[*ast.CallExpr]*ast.CallExpr{},
		labelInside: map[*ast.BlockStmt]int{},
		importNames: map[string]string{},
		added:       map[string]string{},
		pkgNameUsed: map[string]bool{},
		siteIndex:   map[siteKey]int{},
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if imp.Name != nil {
			if imp.Name.Name != "_" && imp.Name.Name != "." {
				r.importNames[path] = imp.Name.Name
			}
			continue
		}
		if pn, ok := r.info.Implicits[imp].(*types.PkgName); ok {
			r.importNames[path] = pn.Name()
		}
	}
	if p.Module != nil {
		r.modPath = p.Module.Path
	}
	v := r.info.FileVersions[f]
	if v == "" && p.Module != nil && p.Module.GoVersion != "" {
		v = "go" + p.Module.GoVersion
	}
	r.oldLoopVars = version.IsValid(v) && version.Compare(v, "go1.22") < 0
	r.alias = r.freeName("gosct")
	r.sharedLocals = sharedLocals(r.info, f)
	r.pipeCalls = knownPipes(r.info, f)
	r.gotoLabels, r.breakLabels = map[string]bool{}, map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Label != nil {
			if b.Tok == token.GOTO {
				r.gotoLabels[b.Label.Name] = true
			} else {
				r.breakLabels[b.Label.Name] = true
			}
		}
		return true
	})
	return r
}

// freeName returns base, or base with a suffix, such that no identifier of
// the file or of the package scope has that name.
func (r *fileRewriter) freeName(base string) string {
	names := map[string]bool{}
	ast.Inspect(r.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
	for _, n := range r.importNames {
		names[n] = true
	}
	for _, n := range r.added {
		names[n] = true
	}
	name := base
	for i := 2; names[name] || r.pkg.Scope().Lookup(name) != nil; i++ {
		name = base + strconv.Itoa(i)
	}
	return name
}

// rewrite runs the walk and fixes the imports; it returns the file.
func (r *fileRewriter) rewrite() *ast.File {
	astutil.Apply(r.file, r.pre, r.post)
	r.linknamedClocks()
	r.deferredPoints()
	r.file.Decls = append(r.file.Decls, r.timerMethods()...)
	if len(r.sites) > 0 {
		r.file.Decls = append(r.file.Decls, r.sitesDecl())
	}
	if r.used {
		r.fixImports()
	}
	return r.file
}

// typeOf is the type of an expression of the original file or of a node
// that replaced one.
func (r *fileRewriter) typeOf(e ast.Expr) types.Type {
	if tv, ok := r.tv[e]; ok {
		return tv.Type
	}
	if tv, ok := r.info.Types[e]; ok {
		return tv.Type
	}
	if id, ok := e.(*ast.Ident); ok {
		if obj := r.info.ObjectOf(id); obj != nil {
			return obj.Type()
		}
	}
	return nil
}

func (r *fileRewriter) tvOf(e ast.Expr) (types.TypeAndValue, bool) {
	if tv, ok := r.tv[e]; ok {
		return tv, true
	}
	tv, ok := r.info.Types[e]
	return tv, ok
}

// replaced records that n stands for old, for later type queries.
func (r *fileRewriter) replaced(n, old ast.Expr) ast.Expr {
	if tv, ok := r.tvOf(old); ok {
		r.tv[n] = tv
	}
	if o, ok := r.orig[old]; ok {
		old = o
	}
	r.orig[n] = old
	return n
}

// hook builds alias.Name(args...), positioned at pos so that the line
// directives name the original line.
func (r *fileRewriter) hook(pos token.Pos, name string, args ...ast.Expr) *ast.CallExpr {
	r.used = true
	c := &ast.CallExpr{Fun: r.hookFunc(pos, name), Lparen: pos, Args: args}
	r.notePoint(c, pos, name)
	r.hooks[c] = true
	return c
}

func (r *fileRewriter) hookFunc(pos token.Pos, name string) *ast.SelectorExpr {
	r.used = true
	// Every token gets pos: the printer estimates the position of a token
	// without one from the text written since the last, which after an
	// insertion runs past the source and makes it place comments early.
	return &ast.SelectorExpr{X: &ast.Ident{Name: r.alias, NamePos: pos}, Sel: &ast.Ident{Name: name, NamePos: pos}}
}

// hookInst builds alias.Name[T](args...), for the hooks whose type
// argument cannot be inferred (a concrete value stored into an interface
// typed location).
func (r *fileRewriter) hookInst(pos token.Pos, name string, t types.Type, args ...ast.Expr) *ast.CallExpr {
	te := r.typeExpr(t)
	if te == nil {
		return nil
	}
	c := r.hook(pos, name, args...)
	c.Fun = &ast.IndexExpr{X: c.Fun, Lbrack: pos, Index: te}
	return c
}

func addr(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return &ast.UnaryExpr{OpPos: e.Pos(), Op: token.AND, X: e}
}

func exprStmt(e ast.Expr) ast.Stmt { return &ast.ExprStmt{X: e} }

// typeExpr spells t in this file, importing the packages it names if
// needed; nil if t cannot be named here (an unexported type of another
// package).
func (r *fileRewriter) typeExpr(t types.Type) ast.Expr {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == r.pkg {
			return ""
		}
		if n, found := r.importNames[p.Path()]; found {
			r.pkgNameUsed[n] = true
			return n
		}
		if !importable(p.Path(), r.pkg.Path()) {
			ok = false
			return p.Name()
		}
		n := r.freeName("gosct_" + sanitize(p.Name()))
		r.importNames[p.Path()] = n
		r.added[p.Path()] = n
		r.pkgNameUsed[n] = true
		return n
	})
	hasUnexported := false
	var visit func(types.Type)
	seen := map[types.Type]bool{}
	visit = func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			if t.Obj().Pkg() != nil && t.Obj().Pkg() != r.pkg && !t.Obj().Exported() {
				hasUnexported = true
			}
			if t.Obj().Parent() != nil && t.Obj().Parent() != t.Obj().Pkg().Scope() && t.Obj().Pkg() != r.pkg {
				hasUnexported = true
			}
			for i := 0; i < t.TypeArgs().Len(); i++ {
				visit(t.TypeArgs().At(i))
			}
		case *types.Pointer:
			visit(t.Elem())
		case *types.Slice:
			visit(t.Elem())
		case *types.Array:
			visit(t.Elem())
		case *types.Map:
			visit(t.Key())
			visit(t.Elem())
		case *types.Chan:
			visit(t.Elem())
		case *types.Signature:
			for i := 0; i < t.Params().Len(); i++ {
				visit(t.Params().At(i).Type())
			}
			for i := 0; i < t.Results().Len(); i++ {
				visit(t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if !t.Field(i).Exported() && t.Field(i).Pkg() != r.pkg {
					hasUnexported = true
				}
				visit(t.Field(i).Type())
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				if !t.Method(i).Exported() && t.Method(i).Pkg() != r.pkg {
					hasUnexported = true
				}
			}
		case *types.Alias:
			visit(types.Unalias(t))
		}
	}
	visit(t)
	if hasUnexported || !ok {
		return nil
	}
	e, err := parser.ParseExpr(s)
	if err != nil {
		return nil
	}
	clearPos(e)
	return e
}

// clearPos zeroes the positions of a parsed node: they are offsets in
// another file set and would make the printer break lines at random.
func clearPos(n ast.Node) {
	posType := reflect.TypeOf(token.NoPos)
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		v := reflect.ValueOf(n)
		if v.Kind() != reflect.Pointer || v.IsNil() {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Type() == posType && f.CanSet() {
				f.SetInt(0)
			}
		}
		return true
	})
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// fixImports adds the runtime import and the imports type expressions
// need, and blanks imports the rewriting made unused (time, when
// time.Sleep was its only use): a kept unused import does not compile.
func (r *fileRewriter) fixImports() {
	used := map[string]bool{}
	ast.Inspect(r.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			switch obj := r.info.Uses[id].(type) {
			case *types.PkgName:
				used[obj.Imported().Path()] = true
			case nil:
			default:
				// A package-level object of another package named
				// without qualifier: through a dot import. (Methods and
				// fields of its types do not use the import.)
				if p := obj.Pkg(); p != nil && p != r.pkg && obj.Parent() == p.Scope() {
					used[p.Path()] = true
				}
			}
		}
		return true
	})
	for _, imp := range append([]*ast.ImportSpec(nil), r.file.Imports...) {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || path == "C" || used[path] || r.pkgNameUsed[r.importNames[path]] {
			continue
		}
		// Blanked, not deleted: astutil.DeleteNamedImport merges the
		// import's line into the one before in the file set, which moves
		// every later position up a line, and the //line directives with
		// them (a panic's or Go's race detector's line one off). The
		// package was linked anyway: the program imported it.
		imp.Name = &ast.Ident{Name: "_", NamePos: imp.Path.Pos()}
	}
	astutil.AddNamedImport(r.fset, r.file, r.alias, runtimeImport)
	var paths []string
	for path := range r.added {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		astutil.AddNamedImport(r.fset, r.file, r.added[path], path)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func ident(name string) *ast.Ident { return ast.NewIdent(name) }

// importable reports whether package from may import path: not an
// internal package of another tree.
func importable(path, from string) bool {
	i := strings.LastIndex(path, "/internal/")
	switch {
	case i >= 0:
	case strings.HasSuffix(path, "/internal"):
		i = len(path) - len("/internal")
	case strings.HasPrefix(path, "internal/") || path == "internal":
		return false // the standard library's
	default:
		return true
	}
	parent := path[:i]
	return from == parent || strings.HasPrefix(from, parent+"/")
}
