package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Access sites. Every shared-memory access hook gets a pointer into a
// table of the file's sites (`&gosct_sites_x[3]`), each the expression as
// the user wrote it (`s.count`, `cache.items[k]`) and its position: a
// race report names both accesses in the user's terms, and the hook pays
// one constant pointer (runtime.Site). The table is a package-level array
// appended to the file, named after the file so that the files of a
// package never clash.

type siteKey struct{ expr, pos string }

// site returns &table[i] for the access e at pos, adding it to the table.
func (r *fileRewriter) site(e ast.Expr, pos token.Pos) ast.Expr {
	return r.siteText(r.exprText(e), pos)
}

// siteText is site for an access whose text is given.
func (r *fileRewriter) siteText(text string, pos token.Pos) ast.Expr {
	p := r.fset.Position(pos)
	k := siteKey{text, filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)}
	i, ok := r.siteIndex[k]
	if !ok {
		i = len(r.sites)
		r.sites = append(r.sites, k)
		r.siteIndex[k] = i
	}
	if r.sitesName == "" {
		r.sitesName = r.freeName(sitesName(r.fset.Position(r.file.Pos()).Filename))
	}
	r.used = true
	return &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: &ast.IndexExpr{
		X:      &ast.Ident{Name: r.sitesName, NamePos: pos},
		Lbrack: pos,
		Index:  &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.Itoa(i)},
		Rbrack: pos,
	}}
}

// sitesName is the name of a file's table: gosct_sites_ and the file's
// name, with a hash of it when sanitizing lost characters (a-b.go and
// a_b.go must not clash).
func sitesName(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), ".go")
	name := "gosct_sites_" + sanitize(base)
	if sanitize(base) != base {
		h := fnv.New32a()
		h.Write([]byte(base))
		name += "_" + strconv.FormatUint(uint64(h.Sum32()), 16)
	}
	return name
}

// sitesDecl is the declaration of the file's table.
func (r *fileRewriter) sitesDecl() ast.Decl {
	elts := make([]ast.Expr, len(r.sites))
	for i, s := range r.sites {
		elts[i] = &ast.CompositeLit{Elts: []ast.Expr{
			&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(s.expr)},
			&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(s.pos)},
		}}
	}
	typ := &ast.ArrayType{Len: &ast.Ellipsis{}, Elt: &ast.SelectorExpr{X: ident(r.alias), Sel: ident("Site")}}
	return &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names:  []*ast.Ident{ident(r.sitesName)},
		Values: []ast.Expr{&ast.CompositeLit{Type: typ, Elts: elts}},
	}}}
}

// exprText is the source text of e, one line, at most 60 characters.
func (r *fileRewriter) exprText(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	if r.src == nil && !r.srcRead {
		r.srcRead = true
		if tf := r.fset.File(r.file.Pos()); tf != nil {
			r.src, _ = os.ReadFile(tf.Name())
		}
	}
	text := ""
	if tf := r.fset.File(e.Pos()); tf != nil && r.src != nil && e.End().IsValid() && e.End() > e.Pos() &&
		int(e.End()) <= tf.Base()+tf.Size() && tf.Size() == len(r.src) {
		text = string(r.src[tf.Offset(e.Pos()):tf.Offset(e.End())])
	}
	if text == "" {
		text = types.ExprString(e)
	}
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return text
}
