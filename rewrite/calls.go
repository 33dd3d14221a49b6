package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// funcHooks maps package-level functions to the hook with the same
// signature that replaces them.
var funcHooks = map[string]string{
	"time.Sleep": "Sleep", "time.After": "After", "time.Tick": "Tick",
	"time.NewTimer": "NewTimer", "time.NewTicker": "NewTicker", "time.AfterFunc": "AfterFunc",
	"time.Now": "Now", "time.Since": "Since", "time.Until": "Until",
	"context.WithTimeout": "WithTimeout", "context.WithDeadline": "WithDeadline",
	"context.WithTimeoutCause": "WithTimeoutCause", "context.WithDeadlineCause": "WithDeadlineCause",
	"context.WithCancel": "WithCancel", "context.WithCancelCause": "WithCancelCause",
	"context.AfterFunc": "ContextAfterFunc",
	"runtime.Gosched":   "Gosched",
	"sync.OnceFunc":     "OnceFunc", "sync.OnceValue": "OnceValue", "sync.OnceValues": "OnceValues",
	"runtime.NumGoroutine": "NumGoroutine", "runtime.Stack": "Stack", "runtime.LockOSThread": "LockOSThread",
	"runtime.ReadMemStats": "ReadMemStats", "testing.AllocsPerRun": "AllocsPerRun",
	"runtime.GC": "GC", "runtime/debug.FreeOSMemory": "FreeOSMemory",
	"net.Pipe": "NetPipe", // Go code over channels, in a package not rewritten (runtime/netpipe.go)

	// Sources of nondeterminism (docs/runtime.md, "What is controlled").
	"math/rand.Intn": "RandIntn", "math/rand.Int31n": "RandInt31n", "math/rand.Int63n": "RandInt63n",
	"math/rand.Int": "RandInt", "math/rand.Int31": "RandInt31", "math/rand.Int63": "RandInt63",
	"math/rand.Uint32": "RandUint32", "math/rand.Uint64": "RandUint64",
	"math/rand.Float32": "RandFloat32", "math/rand.Float64": "RandFloat64",
	"math/rand.ExpFloat64": "RandExpFloat64", "math/rand.NormFloat64": "RandNormFloat64",
	"math/rand.Perm": "RandPerm", "math/rand.Seed": "RandSeed", "math/rand.Shuffle": "RandShuffle", "math/rand.Read": "RandRead",
	"math/rand/v2.IntN": "Rand2IntN", "math/rand/v2.Int32N": "Rand2Int32N", "math/rand/v2.Int64N": "Rand2Int64N",
	"math/rand/v2.UintN": "Rand2UintN", "math/rand/v2.Uint32N": "Rand2Uint32N", "math/rand/v2.Uint64N": "Rand2Uint64N",
	"math/rand/v2.N":   "Rand2N",
	"math/rand/v2.Int": "Rand2Int", "math/rand/v2.Int32": "Rand2Int32", "math/rand/v2.Int64": "Rand2Int64",
	"math/rand/v2.Uint": "Rand2Uint", "math/rand/v2.Uint32": "Rand2Uint32", "math/rand/v2.Uint64": "Rand2Uint64",
	"math/rand/v2.Float32": "Rand2Float32", "math/rand/v2.Float64": "Rand2Float64",
	"math/rand/v2.ExpFloat64": "Rand2ExpFloat64", "math/rand/v2.NormFloat64": "Rand2NormFloat64",
	"math/rand/v2.Perm": "Rand2Perm", "math/rand/v2.Shuffle": "Rand2Shuffle",
	"crypto/rand.Read": "CryptoRead", "crypto/rand.Text": "CryptoText",
	"os.Getenv": "Getenv", "os.LookupEnv": "LookupEnv", "os.ReadFile": "ReadFile", "os.ReadDir": "ReadDir",
}

// varHooks maps package-level variables to the hook, a function of no
// argument, that replaces a read of them.
var varHooks = map[string]string{
	"crypto/rand.Reader": "CryptoReader",
}

// methodHooks maps methods (package.Type.Method) to the hook taking the
// receiver (its address for a value receiver type) as first argument.
var methodHooks = map[string]string{
	"sync.Mutex.Lock": "Lock", "sync.Mutex.Unlock": "Unlock", "sync.Mutex.TryLock": "TryLock",
	"sync.RWMutex.Lock": "RWLock", "sync.RWMutex.Unlock": "RWUnlock", "sync.RWMutex.TryLock": "RWTryLock",
	"sync.RWMutex.RLock": "RLock", "sync.RWMutex.RUnlock": "RUnlock", "sync.RWMutex.TryRLock": "TryRLock",
	"sync.RWMutex.RLocker": "RLocker",
	"sync.WaitGroup.Add":   "Add", "sync.WaitGroup.Done": "Done", "sync.WaitGroup.Wait": "Wait",
	"sync.WaitGroup.Go": "WaitGroupGo",
	"sync.Once.Do":      "Do",
	"sync.Cond.Wait":    "CondWait", "sync.Cond.Signal": "Signal", "sync.Cond.Broadcast": "Broadcast",
	"time.Timer.Stop": "TimerStop", "time.Timer.Reset": "TimerReset",
	"time.Ticker.Stop": "TickerStop", "time.Ticker.Reset": "TickerReset",
	"testing.T.Run": "Run", "testing.T.Parallel": "Parallel",
}

// reportsThroughT are the methods of *testing.T (promoted from testing's
// common) that write to the test's output or change its result: after the
// test has completed, Go's testing panics when a goroutine calls them.
var reportsThroughT = map[string]bool{
	"testing.common.Log": true, "testing.common.Logf": true,
	"testing.common.Error": true, "testing.common.Errorf": true,
	"testing.common.Fatal": true, "testing.common.Fatalf": true,
	"testing.common.Fail": true, "testing.common.FailNow": true,
	"testing.common.Skip": true, "testing.common.Skipf": true, "testing.common.SkipNow": true,
}

// calleeFunc is the function or method a call (or a function value
// expression) denotes, with the selection for a method.
func (r *fileRewriter) calleeFunc(fun ast.Expr) (*types.Func, *ast.SelectorExpr, *types.Selection) {
	fun = unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = unparen(f.X)
	case *ast.IndexListExpr:
		fun = unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		fn, _ := r.info.Uses[f].(*types.Func)
		return fn, nil, nil
	case *ast.SelectorExpr:
		if sel, ok := r.info.Selections[f]; ok {
			fn, _ := sel.Obj().(*types.Func)
			return fn, f, sel
		}
		fn, _ := r.info.Uses[f.Sel].(*types.Func)
		return fn, nil, nil
	}
	return nil, nil, nil
}

// funcKey is "pkgpath.Name" for a package-level function.
func funcKey(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return ""
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// recvNamed is the package path and name of a method's receiver base type
// ("" for an interface method).
func recvNamed(fn *types.Func) (pkg, name string) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return "", ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		if _, isIface := n.Underlying().(*types.Interface); isIface {
			return "", ""
		}
		return n.Obj().Pkg().Path(), n.Obj().Name()
	}
	return "", ""
}

// varKey is "pkgpath.Name" for a package-level variable.
func varKey(v *types.Var) string {
	if v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return ""
	}
	return v.Pkg().Path() + "." + v.Name()
}

func methodKey(fn *types.Func) string {
	pkg, name := recvNamed(fn)
	if pkg == "" {
		return ""
	}
	return pkg + "." + name + "." + fn.Name()
}

// lockerHook is the hook for a Lock or Unlock called through an interface
// value that is a sync.Locker: the runtime looks at the dynamic type.
func (r *fileRewriter) lockerHook(fn *types.Func, sel *types.Selection) string {
	if fn.Name() != "Lock" && fn.Name() != "Unlock" {
		return ""
	}
	if !types.IsInterface(fn.Type().(*types.Signature).Recv().Type()) {
		return ""
	}
	// The value the method is called on: the receiver, or the embedded
	// interface field the selection goes through (struct{ sync.Locker }).
	t := sel.Recv()
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		t = st.Field(i).Type()
	}
	if !types.AssignableTo(t, lockerIface) {
		return ""
	}
	if fn.Name() == "Lock" {
		return "LockerLock"
	}
	return "LockerUnlock"
}

// lockerIface has sync.Locker's method set: assignability to it is
// assignability to sync.Locker.
var lockerIface = func() *types.Interface {
	sig := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	methods := []*types.Func{
		types.NewFunc(token.NoPos, nil, "Lock", sig),
		types.NewFunc(token.NoPos, nil, "Unlock", sig),
	}
	return types.NewInterfaceType(methods, nil).Complete()
}()

// recvExpr is the receiver of a method call as the hooks take it: the
// address of a value receiver, through the embedded fields the selection
// went through (s.Lock() with an embedded Mutex is gosct.Lock(&s.Mutex)).
// ok is false if an embedded field on the way is not accessible here.
func (r *fileRewriter) recvExpr(se *ast.SelectorExpr, sel *types.Selection, wantAddr bool) (ast.Expr, bool) {
	e := se.X
	t := r.typeOf(se.X)
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		if t == nil {
			return nil, false
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil, false
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != r.pkg {
			return nil, false
		}
		e = &ast.SelectorExpr{X: e, Sel: ast.NewIdent(f.Name())}
		t = f.Type()
	}
	if wantAddr && !isPointer(t) {
		if _, isIface := t.Underlying().(*types.Interface); !isIface {
			if len(idx) == 1 {
				if tv, ok := r.info.Types[se.X]; ok && !tv.Addressable() {
					return nil, false
				}
			}
			return addr(e), true
		}
	}
	return e, true
}

// postCall rewrites calls of builtins on channels, of the hooked
// functions and methods, and of the atomic operations.
func (r *fileRewriter) postCall(c *astutil.Cursor, call *ast.CallExpr) {
	if r.skip[call] || r.hooks[call] {
		return
	}
	if tv, ok := r.info.Types[call.Fun]; ok && tv.IsType() {
		return
	}
	if id, ok := unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok {
			r.builtin(c, call, b.Name())
			return
		}
	}
	fn, se, sel := r.calleeFunc(call.Fun)
	if fn == nil {
		return
	}
	pos := call.Pos()
	if h, ok := r.pipeCalls[call]; ok {
		c.Replace(r.replaced(r.hook(pos, h), call))
		return
	}
	if sel != nil && sel.Kind() == types.MethodExpr {
		r.methodExprCall(c, call, fn, sel)
		return
	}
	if isAtomicKind(fn) {
		var a ast.Expr
		if sel != nil {
			a, _ = r.recvExpr(se, sel, true)
		} else if len(call.Args) > 0 {
			a = call.Args[0]
		}
		r.atomic(c, call, a)
		return
	}
	if sel == nil {
		if h, ok := funcHooks[funcKey(fn)]; ok {
			r.notePoint(call, pos, h)
			f := r.hookFunc(pos, h)
			switch x := unparen(call.Fun).(type) {
			case *ast.IndexExpr:
				call.Fun = &ast.IndexExpr{X: f, Index: x.Index}
			case *ast.IndexListExpr:
				call.Fun = &ast.IndexListExpr{X: f, Indices: x.Indices}
			default:
				call.Fun = f
			}
			r.hooks[call] = true
		}
		return
	}
	if methodKey(fn) == "testing.common.Cleanup" {
		// Promoted from testing's unexported common: the hook takes the
		// *testing.T itself. Cleanups must run inside the execution.
		if t := r.testingTRecv(se, sel); t != nil {
			c.Replace(r.replaced(r.hook(pos, "Cleanup", append([]ast.Expr{t}, call.Args...)...), call))
		}
		return
	}
	if methodKey(fn) == "testing.common.Context" {
		// Canceled before the cleanups, which run in the execution.
		if t := r.testingTRecv(se, sel); t != nil {
			c.Replace(r.replaced(r.hook(pos, "TestContext", t), call))
		}
		return
	}
	if r.isContextTB(fn) {
		if recv, ok := r.recvExpr(se, sel, false); ok {
			c.Replace(r.replaced(r.hook(pos, "TestContextTB", recv), call))
		}
		return
	}
	if reportsThroughT[methodKey(fn)] {
		// t.Log(...) -> gosct.T(t).Log(...): the runtime checks that
		// the test has not returned yet (Go's testing panics otherwise).
		if t := r.testingTRecv(se, sel); t != nil {
			se.X = r.hook(pos, "T", t)
		}
		return
	}
	if r.reportsThroughTB(fn) {
		// The same through testing.TB (or another interface *testing.T
		// implements): gosct.TB(tb).Log(...) looks at the dynamic type.
		if recv, ok := r.recvExpr(se, sel, false); ok {
			se.X = r.hook(pos, "TB", recv)
		}
		return
	}
	op, ok := r.methodOpOf(fn, sel)
	if !ok {
		return
	}
	recv, ok := r.recvExpr(se, sel, op.wantAddr)
	if !ok {
		return
	}
	nc := r.hook(pos, op.hook, append([]ast.Expr{recv}, call.Args...)...)
	nc.Ellipsis = call.Ellipsis
	c.Replace(r.replaced(nc, call))
}

// builtin rewrites close, len and make of channels.
func (r *fileRewriter) builtin(c *astutil.Cursor, call *ast.CallExpr, name string) {
	if len(call.Args) == 0 {
		return
	}
	isChan := func(e ast.Expr) bool {
		t := r.typeOf(e)
		if t == nil {
			return false
		}
		return chanElem(t) != nil
	}
	switch name {
	case "delete", "clear":
		if m := r.mapBuiltinOperand(call); m != nil {
			call.Args[0] = r.mapAccess(m, "WriteAt")
		}
	case "close":
		c.Replace(r.replaced(r.hook(call.Pos(), "Close", call.Args[0]), call))
	case "len":
		// Len takes a <-chan E: the length of a send-only channel is
		// left alone.
		if isChan(call.Args[0]) && !isSendOnly(r.typeOf(call.Args[0])) {
			c.Replace(r.replaced(r.hook(call.Pos(), "Len", call.Args[0]), call))
		}
		// len(m) reads the map (Go's detector sees it): shadow-only.
		if m := unparen(call.Args[0]); r.isMap(m) {
			call.Args[0] = r.replaced(r.hook(m.Pos(), "ShadowMapRead", m, r.siteText(r.exprText(call), m.Pos())), m)
		}
	case "cap":
		// Cap knows Go 1.23's timer channels (cap 0); like Len, it
		// takes a <-chan E.
		if isChan(call.Args[0]) && !isSendOnly(r.typeOf(call.Args[0])) {
			c.Replace(r.replaced(r.hook(call.Pos(), "Cap", call.Args[0]), call))
		}
	case "copy":
		// copy writes dst's elements and reads src's: shadow-only
		// accesses of the ranges, as Go's detector sees them.
		if len(call.Args) == 2 && !call.Ellipsis.IsValid() {
			hook, src := "Copy", call.Args[1]
			if t := r.typeOf(call.Args[1]); t != nil {
				if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
					hook = "CopyString"
					if src, ok = r.asString(src, call.Pos()); !ok {
						return
					}
				}
			}
			c.Replace(r.replaced(r.hook(call.Pos(), hook, call.Args[0], src, r.siteText("copy", call.Pos())), call))
		}
	case "append":
		// append writes the elements past s's length in its array (or,
		// growing, reads its elements): shadow-only accesses, as Go's
		// detector sees them.
		if len(call.Args) < 2 {
			return
		}
		dst := call.Args[0]
		if o, ok := r.orig[dst]; ok {
			dst = o
		}
		site := r.siteText("append to "+r.exprText(dst), call.Pos())
		if !call.Ellipsis.IsValid() {
			n := &ast.BasicLit{ValuePos: call.Args[0].Pos(), Kind: token.INT, Value: strconv.Itoa(len(call.Args) - 1)}
			call.Args[0] = r.replaced(r.hook(call.Args[0].Pos(), "AppendTo", call.Args[0], n, site), call.Args[0])
			return
		}
		hook, src := "AppendSlice", call.Args[1]
		if t := r.typeOf(call.Args[1]); t != nil {
			if b, ok := t.Underlying().(*types.Basic); ok {
				if b.Info()&types.IsString == 0 {
					return
				}
				hook = "AppendString"
				if src, ok = r.asString(src, call.Pos()); !ok {
					return
				}
			}
		}
		c.Replace(r.replaced(r.hook(call.Pos(), hook, call.Args[0], src, site), call))
	case "make":
		t := r.typeOf(call)
		if t == nil || chanElem(t) == nil {
			return
		}
		var e ast.Expr = r.hook(call.Pos(), "Chan", call)
		if _, plain := types.Unalias(t).(*types.Chan); !plain {
			// A named channel type (or a type parameter): convert back,
			// since the hook returns the plain chan type.
			e = &ast.CallExpr{Fun: call.Args[0], Args: []ast.Expr{e}}
		}
		c.Replace(r.replaced(e, call))
	}
}

// chanElem is the element type of a channel type, or of the core type of
// a type parameter; nil if t is no channel.
func chanElem(t types.Type) types.Type {
	if tp, ok := t.(*types.TypeParam); ok {
		var elem types.Type
		iface, _ := tp.Constraint().Underlying().(*types.Interface)
		if iface == nil {
			return nil
		}
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			if u, ok := iface.EmbeddedType(i).(*types.Union); ok {
				for j := 0; j < u.Len(); j++ {
					if ch, ok := u.Term(j).Type().Underlying().(*types.Chan); ok {
						elem = ch.Elem()
					} else {
						return nil
					}
				}
			} else if ch, ok := iface.EmbeddedType(i).Underlying().(*types.Chan); ok {
				elem = ch.Elem()
			}
		}
		return elem
	}
	if ch, ok := t.Underlying().(*types.Chan); ok {
		return ch.Elem()
	}
	return nil
}

// postSelector rewrites reads of fields and package variables, method
// values of hooked methods, and function values of hooked functions.
func (r *fileRewriter) postSelector(c *astutil.Cursor, se *ast.SelectorExpr) {
	sel, ok := r.info.Selections[se]
	if !ok {
		switch obj := r.info.Uses[se.Sel].(type) {
		case *types.Var:
			if h, ok := varHooks[varKey(obj)]; ok && !r.noRead[se] {
				c.Replace(r.replaced(r.hook(se.Pos(), h), se))
				return
			}
			r.read(c, se)
		case *types.Func:
			if r.callee[se] {
				return
			}
			if isAtomicKind(obj) {
				r.atomicFuncValue(c, se, obj)
				return
			}
			if h, ok := funcHooks[funcKey(obj)]; ok {
				if sig := obj.Type().(*types.Signature); sig.TypeParams().Len() == 0 {
					c.Replace(r.replaced(r.hookFunc(se.Pos(), h), se))
				}
			}
		}
		return
	}
	switch sel.Kind() {
	case types.FieldVal:
		r.read(c, se)
	case types.MethodVal:
		if !r.callee[se] {
			r.methodValue(c, se, sel)
		}
		r.derefCopy(se, sel)
	case types.MethodExpr:
		// Called directly with the method's own receiver type, the call
		// is rewritten by methodExprCall.
		if !r.callee[se] || len(sel.Index()) > 1 {
			r.methodExpr(c, se, sel)
		}
	}
}

func isSendOnly(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	return ok && ch.Dir() == types.SendOnly
}

// asString is e, an operand of a string type, as the string that the
// hooks CopyString and AppendString take: a named string type
// (protobuf's protoreflect.FullName, `append(buf, name...)`) is not
// assignable to string, so it is converted. ok is false where the
// conversion cannot be written, string being shadowed at pos: the call is
// then left as it is.
func (r *fileRewriter) asString(e ast.Expr, pos token.Pos) (ast.Expr, bool) {
	t := r.typeOf(e)
	if t == nil || isUntyped(t) || types.Identical(t, types.Typ[types.String]) {
		return e, true
	}
	sc := r.innermostScope(pos)
	if sc == nil {
		return nil, false
	}
	if _, obj := sc.LookupParent("string", pos); obj != types.Universe.Lookup("string") {
		return nil, false
	}
	return &ast.CallExpr{Fun: ident("string"), Args: []ast.Expr{e}}, true
}
