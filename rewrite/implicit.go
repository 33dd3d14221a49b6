package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Implicit accesses: the program reads or writes a variable without an
// expression that says so. They are shadow-only (race-checked, not
// scheduling points: the statement around them has its own):
//
//   - a range loop assigns its key and value at each iteration: before
//     go1.22 (the file's version) the variables a `:=` range declares are
//     one per loop, so a goroutine that captured one races with the next
//     iteration's write; with `=` the loop writes whatever variables it
//     names, in any version;
//   - a return reads the function's named results (a bare return) or
//     writes them (a return with values) where a closure or a pointer
//     shares them.

// funcPush and funcPop keep r.funcs, the enclosing function types, and
// r.returned, for postReturn.
func (r *fileRewriter) funcPush(n ast.Node) {
	switch n := n.(type) {
	case *ast.ReturnStmt:
		if len(n.Results) > 0 {
			if r.returned == nil {
				r.returned = map[*ast.ReturnStmt][]ast.Expr{}
			}
			r.returned[n] = append([]ast.Expr(nil), n.Results...)
			// `return x` where x is the result itself is left as written
			// (postReturn checks its read): `return hook(&x)` would be a
			// real write of x, which the program does not make.
			if len(r.funcs) > 0 {
				for i, v := range resultVars(r.info, r.funcs[len(r.funcs)-1]) {
					if r.returnsItself(n, i, v) {
						r.noRead[unparen(n.Results[i])] = true
					}
				}
			}
		}
	case *ast.FuncDecl:
		r.funcs = append(r.funcs, n.Type)
	case *ast.FuncLit:
		r.funcs = append(r.funcs, n.Type)
	}
}

func (r *fileRewriter) funcPop(n ast.Node) {
	switch n.(type) {
	case *ast.FuncDecl, *ast.FuncLit:
		if len(r.funcs) > 0 {
			r.funcs = r.funcs[:len(r.funcs)-1]
		}
	}
}

// rangeWrites puts a shadow write of each variable the range loop n
// assigns that another goroutine may reach at the start of its body.
func (r *fileRewriter) rangeWrites(n *ast.RangeStmt) {
	if n.Body == nil {
		return
	}
	var pre []ast.Stmt
	for _, x := range []ast.Expr{n.Key, n.Value} {
		if x == nil {
			continue
		}
		x = unparen(x)
		if id, ok := x.(*ast.Ident); ok && id.Name == "_" {
			continue
		}
		if n.Tok == token.DEFINE {
			id, ok := x.(*ast.Ident)
			if !ok || !r.oldLoopVars {
				continue
			}
			v, _ := r.info.Defs[id].(*types.Var)
			if v == nil || !r.sharedLocals[v] || untracked(v.Type()) {
				continue
			}
			pre = append(pre, exprStmt(r.hook(id.Pos(), "ShadowWrite", addr(ident(id.Name)), r.site(id, id.Pos()))))
			continue
		}
		tv, ok := r.info.Types[x]
		if !ok || untracked(tv.Type) || !r.sharedMem(x) || !r.sideEffectFree(x) {
			continue
		}
		if ix, ok := x.(*ast.IndexExpr); ok && r.isMap(ix.X) {
			pre = append(pre, exprStmt(r.hook(x.Pos(), "ShadowWrite", ix.X, r.site(x, x.Pos()))))
			continue
		}
		if tv.Addressable() || isStar(x) {
			pre = append(pre, exprStmt(r.hook(x.Pos(), "ShadowWrite", addr(x), r.site(x, x.Pos()))))
		}
	}
	if len(pre) > 0 {
		n.Body.List = append(pre, n.Body.List...)
	}
}

// postReturn puts before a return the shadow accesses of the named
// results it reads (bare) or writes (with values), for those another
// goroutine may reach.
func (r *fileRewriter) postReturn(c *astutil.Cursor, n *ast.ReturnStmt) {
	if len(r.funcs) == 0 || c.Index() < 0 {
		return
	}
	ft := r.funcs[len(r.funcs)-1]
	if ft.Results == nil {
		return
	}
	scope := r.innermostScope(n.Pos())
	i := -1 // the result's index, to pair it with its expression
	for _, f := range ft.Results.List {
		for _, name := range f.Names {
			i++
			v, _ := r.info.Defs[name].(*types.Var)
			if v == nil || name.Name == "_" || !r.sharedLocals[v] || untracked(v.Type()) {
				continue
			}
			hook := "ShadowRead"
			// `return x` where x is the result itself assigns x to x:
			// the compiler drops it and Go's detector sees only the read
			// (funcPush left it unhooked), so a write here would be a
			// race that the program does not have.
			if len(n.Results) > 0 && !r.returnsItself(n, i, v) {
				hook = "ShadowWrite"
			}
			// A return with values may stand where the result's name is
			// shadowed: &name would be another variable.
			if scope != nil {
				if _, obj := scope.LookupParent(name.Name, n.Pos()); obj != v {
					continue
				}
			}
			c.InsertBefore(exprStmt(r.hook(n.Pos(), hook, addr(ident(name.Name)), r.siteText(name.Name, n.Pos()))))
		}
	}
}

// returnsItself reports whether the return n gives its i-th result the
// value of that result's own variable v (a self-assignment).
func (r *fileRewriter) returnsItself(n *ast.ReturnStmt, i int, v *types.Var) bool {
	results := r.returned[n]
	if v == nil || i >= len(results) || len(results) != len(resultVars(r.info, r.funcs[len(r.funcs)-1])) {
		return false
	}
	id, ok := unparen(results[i]).(*ast.Ident)
	return ok && r.info.Uses[id] == v
}

// resultVars are the variables of ft's results, in order (nil where
// unnamed).
func resultVars(info *types.Info, ft *ast.FuncType) []*types.Var {
	if ft.Results == nil {
		return nil
	}
	var vs []*types.Var
	for _, f := range ft.Results.List {
		if len(f.Names) == 0 {
			vs = append(vs, nil)
		}
		for _, name := range f.Names {
			v, _ := info.Defs[name].(*types.Var)
			vs = append(vs, v)
		}
	}
	return vs
}

// innermostScope is the scope of the file that contains pos, or nil.
func (r *fileRewriter) innermostScope(pos token.Pos) *types.Scope {
	fs := r.info.Scopes[r.file]
	if fs == nil {
		return nil
	}
	return fs.Innermost(pos)
}

// recvIsRead reports whether calling the method sel on x reads x's value
// (not only its address): x is an interface, or a pointer (the pointer
// variable is read; a value receiver also copies what it points to), or
// the method has a value receiver. The receivers of the methods gosct
// hooks (sync, atomics, testing) are left alone: their hooks take them.
func (r *fileRewriter) recvIsRead(sel *types.Selection, x ast.Expr) bool {
	fn, ok := sel.Obj().(*types.Func)
	if !ok || isAtomicKind(fn) || methodHooks[methodKey(fn)] != "" || reportsThroughT[methodKey(fn)] || isCleanupIface(fn) {
		return false
	}
	if fn.Pkg() != nil && (fn.Pkg().Path() == "testing" || fn.Pkg().Path() == "sync") {
		return false
	}
	xt := r.typeOf(x)
	if xt == nil || untracked(xt) {
		return false
	}
	if types.IsInterface(xt) || isPointer(xt) {
		return true
	}
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && !isPointer(recv.Type()) && len(sel.Index()) == 1
}

// localSliceElem reports memory in an element of a slice that no shared
// variable holds (a parameter, a local): xs[i], or a field or array
// element of it (xs[i].n, xs[i].a[j]). Its backing array may still be
// shared, so its accesses are shadow-only (race-checked, not scheduling
// points: every loop over a slice would otherwise be a string of them).
// The caller has found that e is not shared memory otherwise.
func (r *fileRewriter) localSliceElem(e ast.Expr) bool {
	for {
		switch x := unparen(e).(type) {
		case *ast.IndexExpr:
			t := r.typeOf(x.X)
			if t == nil {
				return false
			}
			switch t.Underlying().(type) {
			case *types.Slice:
				return true
			case *types.Array:
				e = x.X
				continue
			}
			return false
		case *ast.SelectorExpr:
			sel, ok := r.info.Selections[x]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

// derefCopy makes the copy that a value-receiver method called through
// a pointer makes of what it points to (p.get() with func (T) get) a
// shadow-only read: p becomes gosct.ShadowDeref(p, site). A method
// promoted from an embedded field (p.get() with get declared on a type
// that p's struct embeds, maybe through several levels) copies that
// field: p becomes gosct.ShadowDeref(&p.mid.leaf, site) (the field's
// pointer, for an embedded pointer), whose method set has get too.
func (r *fileRewriter) derefCopy(se *ast.SelectorExpr, sel *types.Selection) {
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return
	}
	recv := fn.Type().(*types.Signature).Recv()
	xt := r.typeOf(se.X)
	if xt == nil || recv == nil || isPointer(recv.Type()) || types.IsInterface(recv.Type()) {
		return
	}
	if len(sel.Index()) > 1 {
		r.promotedCopy(se, sel)
		return
	}
	if !r.shadowRead[unparen(se.X)] && !isPointer(xt) {
		return
	}
	if !isPointer(xt) || !r.recvIsRead(sel, se.X) {
		return
	}
	se.X = r.replaced(r.hook(se.X.Pos(), "ShadowDeref", se.X, r.siteText("*"+r.exprText(se.X), se.X.Pos())), se.X)
}

// promotedCopy is derefCopy of a value-receiver method promoted through
// embedded fields: the copy is of the last embedded field on the path,
// read where the receiver is reached through a pointer or is shared.
func (r *fileRewriter) promotedCopy(se *ast.SelectorExpr, sel *types.Selection) {
	fn := sel.Obj().(*types.Func)
	if isAtomicKind(fn) || methodHooks[methodKey(fn)] != "" || reportsThroughT[methodKey(fn)] || isCleanupIface(fn) {
		return
	}
	if fn.Pkg() != nil && (fn.Pkg().Path() == "testing" || fn.Pkg().Path() == "sync") {
		return
	}
	xt := r.typeOf(se.X)
	if types.IsInterface(xt) {
		return
	}
	if !isPointer(xt) {
		if tv, ok := r.info.Types[se.X]; ok && !tv.Addressable() {
			return
		}
	}
	// The embedded fields on the path, by name; through is set where the
	// path goes through an embedded pointer, whose memory may be shared
	// even where x is a local nothing else reaches.
	var path ast.Expr = se.X
	t := xt
	through := false
	for _, i := range sel.Index()[:len(sel.Index())-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
			through = true
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != r.pkg || untracked(f.Type()) {
			return
		}
		path = &ast.SelectorExpr{X: path, Sel: &ast.Ident{NamePos: se.Sel.Pos(), Name: f.Name()}}
		t = f.Type()
	}
	if !isPointer(xt) && !through && !isPointer(t) && !r.sharedMem(se.X) {
		return // a copy of a local's own memory
	}
	if !isPointer(t) {
		path = &ast.UnaryExpr{OpPos: se.X.Pos(), Op: token.AND, X: path}
	}
	site := r.siteText(r.exprText(se.X)+"."+fn.Name()+" (its receiver's copy)", se.X.Pos())
	se.X = r.hook(se.X.Pos(), "ShadowDeref", path, site)
}

// rangeReads makes the element read of a range over a slice, or over a
// pointer to an array, a shadow-only read at each iteration,
// `gosct.ShadowRead(&xs[i], site)`, where the loop has a value variable (a
// blank or missing key becomes gosct_i). Go evaluates the range
// expression once and reads its elements from that value: a slice
// variable the loop does not assign, ranged over with :=, is read again
// as is; anything else (a field, a call, a slice the body reassigns, a
// `=` range) is evaluated once into gosct_xs, in a block around the loop,
// and the loop ranges over gosct_xs:
//
//	{ gosct_xs := X; for i, v := range gosct_xs { gosct.ShadowRead(&gosct_xs[i], site); B } }
//
// A `=` range whose key is not a local of this goroutine (s.k, m[k], *p,
// a shared variable) reads through a counter of its own:
//
//	{ gosct_xs := X; gosct_i := 0; for s.k, v = range gosct_xs { gosct.ShadowRead(&gosct_xs[gosct_i], site); gosct_i++; B } }
func (r *fileRewriter) rangeReads(c *astutil.Cursor, n *ast.RangeStmt) {
	if n.Value == nil || n.Body == nil {
		return
	}
	if id, ok := n.Value.(*ast.Ident); ok && id.Name == "_" {
		return
	}
	t := r.typeOf(n.X)
	if t == nil {
		return
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); !ok {
			return
		}
	default:
		return
	}
	orig := n.X
	if o, ok := r.orig[orig]; ok {
		orig = o
	}
	// The site names the elements as the user would: r.fixed[i] for a
	// range over &r.fixed.
	if u, ok := unparen(orig).(*ast.UnaryExpr); ok && u.Op == token.AND {
		orig = u.X
	}
	text := r.exprText(orig)
	xs, isIdent := unparen(n.X).(*ast.Ident)
	if isIdent {
		obj, _ := r.info.Uses[xs].(*types.Var)
		if obj == nil || n.Tok != token.DEFINE || assigns(r.info, n.Body, obj) || declares(n, xs.Name) {
			isIdent = false
		}
	}
	var b *ast.BlockStmt
	// counted: the loop's key cannot index the read, being a field, a map
	// element, a pointer's target, or a variable another goroutine reaches
	// (reading it again would be an access the program does not make). A
	// counter of the loop's own, gosct_i, stands for it: a slice's range
	// visits its indices in order, from 0, and each iteration starts the
	// body once.
	counted := false
	if !isIdent {
		if key, ok := n.Key.(*ast.Ident); ok && key.Name != "_" && n.Tok == token.ASSIGN {
			v, _ := r.info.Uses[key].(*types.Var)
			counted = v == nil || r.sharedVar(v)
		} else if !ok && n.Key != nil {
			counted = true
		}
		xs = ident("gosct_xs")
		r.tv[xs] = types.TypeAndValue{Type: t}
		b = &ast.BlockStmt{Lbrace: n.For, List: []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{xs}, TokPos: n.For, Tok: token.DEFINE, Rhs: []ast.Expr{n.X}}}, Rbrace: n.End()}
		n.X = xs
	}
	if counted {
		i := ident("gosct_i")
		b.List = append(b.List, &ast.AssignStmt{Lhs: []ast.Expr{i}, TokPos: n.For, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.BasicLit{ValuePos: n.For, Kind: token.INT, Value: "0"}}})
		elem := &ast.IndexExpr{X: ident(xs.Name), Index: ident(i.Name)}
		k := n.Key
		if o, ok := r.orig[k]; ok {
			k = o
		}
		read := exprStmt(r.hook(n.Value.Pos(), "ShadowRead", &ast.UnaryExpr{Op: token.AND, X: elem}, r.siteText(text+"["+r.exprText(k)+"]", n.Value.Pos())))
		next := &ast.IncDecStmt{X: ident(i.Name), TokPos: n.For, Tok: token.INC}
		n.Body.List = append([]ast.Stmt{read, next}, n.Body.List...)
		r.labelInside[b] = len(b.List)
		b.List = append(b.List, n)
		c.Replace(b)
		return
	}
	key, ok := n.Key.(*ast.Ident)
	if !ok || key == nil {
		return
	}
	if key.Name == "_" {
		key = ident("gosct_i")
		n.Key = key
		if n.Tok == token.ASSIGN {
			b.List = append(b.List, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR,
				Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{key}, Type: ident("int")}}}})
		}
	}
	elem := &ast.IndexExpr{X: ident(xs.Name), Index: ident(key.Name)}
	read := exprStmt(r.hook(n.Value.Pos(), "ShadowRead", &ast.UnaryExpr{Op: token.AND, X: elem}, r.siteText(text+"["+key.Name+"]", n.Value.Pos())))
	n.Body.List = append([]ast.Stmt{read}, n.Body.List...)
	if b != nil {
		r.labelInside[b] = len(b.List)
		b.List = append(b.List, n)
		c.Replace(b)
	}
}

// assigns reports whether body assigns v (or takes its address).
func assigns(info *types.Info, body ast.Node, v *types.Var) bool {
	found := false
	is := func(e ast.Expr) bool {
		id, ok := unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if is(l) {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				found = true
			}
		case *ast.RangeStmt:
			if n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// loopVarCopies: from go1.22, each iteration of a three-clause loop has
// its own variables, copied from the previous iteration's before the post
// statement; that copy reads them, racing with a goroutine that writes
// one it captured. A shadow-only read of each shared loop variable goes
// at the end of the body and before each continue of the loop.
func (r *fileRewriter) loopVarCopies(c *astutil.Cursor, n *ast.ForStmt) {
	if r.oldLoopVars || n.Body == nil || n.Post == nil {
		return
	}
	init, ok := n.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return
	}
	var vars []*ast.Ident
	for _, l := range init.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		if v, _ := r.info.Defs[id].(*types.Var); v != nil && r.sharedLocals[v] && !untracked(v.Type()) {
			vars = append(vars, id)
		}
	}
	if len(vars) == 0 {
		return
	}
	label := ""
	if l, ok := c.Parent().(*ast.LabeledStmt); ok {
		label = l.Label.Name
	}
	reads := func() []ast.Stmt {
		var out []ast.Stmt
		for _, id := range vars {
			out = append(out, exprStmt(r.hook(n.For, "ShadowRead", addr(ident(id.Name)), r.siteText(id.Name, n.For))))
		}
		return out
	}
	// A continue of this loop: unlabeled outside nested loops, or with
	// the loop's label; the variables must not be shadowed there.
	visible := func(pos token.Pos) bool {
		sc := r.innermostScope(pos)
		if sc == nil {
			return false
		}
		for _, id := range vars {
			if _, obj := sc.LookupParent(id.Name, pos); obj != r.info.Defs[id] {
				return false
			}
		}
		return true
	}
	depth := 0
	astutil.Apply(n.Body, func(c *astutil.Cursor) bool {
		switch x := c.Node().(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			depth++
		case *ast.BranchStmt:
			ours := x.Label == nil && depth == 0 || x.Label != nil && x.Label.Name == label
			if x.Tok == token.CONTINUE && ours && c.Index() >= 0 && visible(x.Pos()) {
				for _, s := range reads() {
					c.InsertBefore(s)
				}
			}
		}
		return true
	}, func(c *astutil.Cursor) bool {
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			depth--
		}
		return true
	})
	if !visible(n.Body.Rbrace) {
		return
	}
	n.Body.List = append(n.Body.List, reads()...)
}

// declares reports whether the range's key or value variable, declared
// with :=, is named name: it shadows a slice of that name in the body,
// where the element read would name it.
func declares(n *ast.RangeStmt, name string) bool {
	for _, e := range []ast.Expr{n.Key, n.Value} {
		if id, ok := e.(*ast.Ident); ok && id.Name == name {
			return true
		}
	}
	return false
}
