package rewrite

import (
	"go/ast"
	"go/token"
)

// Point is a scheduling point the rewriter inserted: a hook at which the
// runtime may switch goroutines. The command's coverage report (gosct test
// --coverage) compares the points an exploration reached with these, the
// package's every point.
type Point struct {
	// File is the original file, absolute; Line its line.
	File string
	Line int
	// Op is the operation, named as the runtime names it in traces and
	// reports ("chan send", "mutex lock", "read").
	Op string
}

// pointHooks maps the hooks that are scheduling points at their own call
// to the operation the runtime performs there. Hooks that are not (Then,
// T, constructors such as WithCancel or NewTimer, rand and environment
// hooks, t.Run) are absent; a context's cancel function or a timer's
// channel are points where the user's code calls or receives, which the
// rewriter sees as calls of a func value or receives.
var pointHooks = map[string]string{
	"Send": "chan send", "Recv": "chan receive", "Recv2": "chan receive", "Close": "chan close", "Len": "chan len",
	"Select": "select",
	"Lock":   "mutex lock", "TryLock": "mutex lock", "Unlock": "mutex unlock",
	"RWLock": "rwmutex lock", "RWTryLock": "rwmutex lock", "RWUnlock": "rwmutex unlock",
	"RLock": "rwmutex rlock", "TryRLock": "rwmutex rlock", "RUnlock": "rwmutex runlock",
	"LockerLock": "lock", "LockerUnlock": "unlock",
	"Add": "waitgroup", "Done": "waitgroup", "WaitGroupGo": "waitgroup", "Wait": "waitgroup wait",
	"Do":       "once",
	"CondWait": "cond wait", "Signal": "cond signal", "Broadcast": "cond broadcast",
	"Atomic": "atomic", "AtomicLoad": "atomic load", "AtomicStore": "atomic", "AtomicCAS": "atomic",
	"Load": "read", "Read": "read", "Store": "write", "Write": "write",
	"LoadAt": "read", "ReadAt": "read", "StoreAt": "write", "WriteAt": "write",
	"Go":    "go",
	"Sleep": "sleep", "Gosched": "yield", "NumGoroutine": "numgoroutine", "Stack": "goroutine stacks",
	"TimerStop": "timer", "TimerReset": "timer", "TickerStop": "timer", "TickerReset": "timer",
}

// notePoint records the hook call c of the hook name at pos if it is a
// scheduling point.
func (r *fileRewriter) notePoint(c *ast.CallExpr, pos token.Pos, name string) {
	op, ok := pointHooks[name]
	if !ok || !pos.IsValid() {
		return
	}
	p := r.fset.Position(pos)
	if r.pointAt == nil {
		r.pointAt = map[*ast.CallExpr]int{}
	}
	r.pointAt[c] = len(r.points)
	r.points = append(r.points, Point{File: p.Filename, Line: p.Line, Op: op})
}

// A deferred hook (defer gosct.Unlock(&mu)) runs when its function
// returns: its caller's line is then the return statement's, or the
// function's closing brace (go's position of the deferred calls). Its
// points are those exit lines, so that what the runtime reaches and what
// the rewriter lists are the same lines.

// deferredPoints moves the points of the deferred hooks of the rewritten
// file to the exit lines of their functions.
func (r *fileRewriter) deferredPoints() {
	if len(r.pointAt) == 0 {
		return
	}
	moved := map[int]bool{}
	var extra []Point
	var visit func(body *ast.BlockStmt)
	visit = func(body *ast.BlockStmt) {
		var exits []token.Pos
		var defers []*ast.DeferStmt
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				visit(n.Body)
				return false
			case *ast.ReturnStmt:
				exits = append(exits, n.Pos())
			case *ast.DeferStmt:
				defers = append(defers, n)
			}
			return true
		})
		if len(defers) == 0 {
			return
		}
		if len(body.List) == 0 || !terminating(body.List[len(body.List)-1]) {
			exits = append(exits, body.Rbrace)
		}
		for _, d := range defers {
			i, ok := r.pointAt[d.Call]
			if !ok {
				continue
			}
			moved[i] = true
			for _, x := range exits {
				if !x.IsValid() {
					continue
				}
				p := r.fset.Position(x)
				extra = append(extra, Point{File: p.Filename, Line: p.Line, Op: r.points[i].Op})
			}
		}
	}
	for _, d := range r.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			visit(fd.Body)
		}
	}
	if len(moved) == 0 {
		return
	}
	kept := r.points[:0:0]
	for i, p := range r.points {
		if !moved[i] {
			kept = append(kept, p)
		}
	}
	r.points = append(kept, extra...)
}

// terminating reports whether s is a terminating statement (the Go spec's
// definition, without labels: a break anywhere inside a loop, switch or
// select counts), after which a function does not reach its closing brace.
func terminating(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BlockStmt:
		return len(s.List) > 0 && terminating(s.List[len(s.List)-1])
	case *ast.IfStmt:
		return s.Else != nil && terminating(s.Body) && terminating(s.Else)
	case *ast.LabeledStmt:
		return terminating(s.Stmt)
	case *ast.ForStmt:
		return s.Cond == nil && !hasBreak(s.Body)
	case *ast.SwitchStmt:
		return clausesTerminate(s.Body, true)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(s.Body, true)
	case *ast.SelectStmt:
		return clausesTerminate(s.Body, false)
	}
	return false
}

// clausesTerminate: every clause ends in a terminating statement, none
// breaks, and (for a switch) one is the default.
func clausesTerminate(body *ast.BlockStmt, needDefault bool) bool {
	def := !needDefault
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			list, def = c.Body, def || c.List == nil
		case *ast.CommClause:
			list = c.Body
		}
		if len(list) == 0 || !terminating(list[len(list)-1]) || hasBreak(&ast.BlockStmt{List: list}) {
			return false
		}
	}
	return def
}

// hasBreak reports a break statement anywhere in n outside function
// literals.
func hasBreak(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.BREAK {
				found = true
			}
		}
		return !found
	})
	return found
}
