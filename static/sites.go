package static

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Op returns the runtime's name of the scheduling point the rewriter puts
// at instr ("chan send", "mutex lock", "write", "go", ... as in
// runtime/ops.go), or "" if instr is not one. It follows the rewriter's
// rules (docs/rewrite.md) closely enough to count scheduling points, not
// exactly: a shared-memory access is one when its address is not a local
// that nothing captures, and a store that fills memory just allocated (a
// composite literal, the arguments of a variadic call) is none.
func (p *Program) Op(instr ssa.Instruction) string {
	if st, ok := instr.(*ssa.Store); ok && p.fresh(st) {
		return ""
	}
	return op(instr)
}

func op(instr ssa.Instruction) string {
	switch in := instr.(type) {
	case *ssa.Go:
		return "go"
	case *ssa.Send:
		return "chan send"
	case *ssa.Select:
		return "select"
	case *ssa.UnOp:
		switch in.Op {
		case token.ARROW:
			return "chan receive"
		case token.MUL:
			if sharedAddr(in.X) && !quiet(in.Type()) {
				return "read"
			}
		}
	case *ssa.Store:
		if sharedAddr(in.Addr) && !quiet(in.Val.Type()) {
			return "write"
		}
	case *ssa.MapUpdate:
		return "write"
	case *ssa.Lookup:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok {
			return "read"
		}
	case *ssa.Range:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok {
			return "read"
		}
	case *ssa.Call:
		return callOp(in.Common())
	case *ssa.Defer:
		return callOp(in.Common())
	}
	return ""
}

// callOp names the hook of a call, if it has one.
func callOp(c *ssa.CallCommon) string {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "close":
			return "chan close"
		case "len":
			if len(c.Args) == 1 {
				if _, ok := c.Args[0].Type().Underlying().(*types.Chan); ok {
					return "chan len"
				}
			}
		case "delete", "clear":
			if len(c.Args) >= 1 {
				if _, ok := c.Args[0].Type().Underlying().(*types.Map); ok {
					return "write"
				}
			}
		}
		return ""
	}
	if c.IsInvoke() {
		// Lock and Unlock through an interface value (sync.Locker).
		switch c.Method.Name() {
		case "Lock":
			if isLocker(c.Value.Type()) {
				return "mutex lock"
			}
		case "Unlock":
			if isLocker(c.Value.Type()) {
				return "mutex unlock"
			}
		}
		return ""
	}
	fn := c.StaticCallee()
	if fn == nil {
		return ""
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return ""
	}
	return hookOf(obj)
}

// hookOf names the scheduling point of a call of obj, a function or
// method of the standard library that the rewriter hooks.
func hookOf(obj *types.Func) string {
	pkg := obj.Pkg().Path()
	recv := ""
	if sig, ok := obj.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	name := obj.Name()
	switch pkg {
	case "sync":
		switch recv + "." + name {
		case "Mutex.Lock", "Mutex.TryLock":
			return "mutex lock"
		case "Mutex.Unlock":
			return "mutex unlock"
		case "RWMutex.Lock", "RWMutex.TryLock":
			return "rwmutex lock"
		case "RWMutex.Unlock":
			return "rwmutex unlock"
		case "RWMutex.RLock", "RWMutex.TryRLock":
			return "rwmutex rlock"
		case "RWMutex.RUnlock":
			return "rwmutex runlock"
		case "WaitGroup.Add", "WaitGroup.Done":
			return "waitgroup"
		case "WaitGroup.Wait":
			return "waitgroup wait"
		case "WaitGroup.Go":
			return "go"
		case "Once.Do":
			return "once"
		case "Cond.Wait":
			return "cond wait"
		case "Cond.Signal":
			return "cond signal"
		case "Cond.Broadcast":
			return "cond broadcast"
		}
		if recv == "Map" || recv == "Pool" {
			return "atomic"
		}
	case "sync/atomic":
		if strings.HasPrefix(name, "Load") || name == "Load" {
			return "atomic load"
		}
		return "atomic"
	case "time":
		switch recv + "." + name {
		case ".Sleep":
			return "sleep"
		case ".After", ".Tick", ".NewTimer", ".NewTicker", ".AfterFunc",
			"Timer.Stop", "Timer.Reset", "Ticker.Stop", "Ticker.Reset":
			return "timer"
		}
	case "runtime":
		if name == "Gosched" && recv == "" {
			return "yield"
		}
	case "testing":
		if name == "Run" && recv == "T" {
			return "uncontrolled call"
		}
	}
	return ""
}

func isLocker(t types.Type) bool {
	if !types.IsInterface(t) {
		return false
	}
	ms := types.NewMethodSet(t)
	return ms.Lookup(nil, "Lock") != nil && ms.Lookup(nil, "Unlock") != nil
}

// sharedAddr reports whether memory at addr may be reached by another
// goroutine: a package-level variable, a variable captured or whose
// address escapes (a heap Alloc), anything reached through a pointer,
// and their fields and elements; not a local that only its function sees.
func sharedAddr(addr ssa.Value) bool {
	for i := 0; i < 32; i++ {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return a.Heap
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Slice); ok {
				// An element of a slice: shared when the slice
				// itself was read from shared memory.
				u, ok := a.X.(*ssa.UnOp)
				return ok && u.Op == token.MUL && sharedAddr(u.X)
			}
			addr = a.X
		default:
			return true // globals, free variables, parameters, loaded pointers
		}
	}
	return true
}

// quiet reports the types whose variables the rewriter does not
// instrument: channels, functions, and the types of sync, sync/atomic,
// testing and context, whose operations have hooks of their own.
func quiet(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() {
		case "sync", "sync/atomic", "testing", "context":
			return true
		}
	}
	return false
}

// A Line is a source line of an analyzed function.
type Line struct {
	File string
	Line int
}

func (l Line) String() string {
	f := l.File
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		f = f[i+1:]
	}
	return f + ":" + itoa(l.Line)
}

// LineOf is the line of instr, and false if it has no position in an
// analyzed file.
func (p *Program) LineOf(instr ssa.Instruction) (Line, bool) {
	pos := instrPos(instr)
	if !pos.IsValid() {
		return Line{}, false
	}
	ps := p.Fset.Position(pos)
	if !p.Files[ps.Filename] {
		return Line{}, false
	}
	return Line{ps.Filename, ps.Line}, true
}

// instrPos is the position the compiler gives instr's code, as near as
// SSA knows: the call's parenthesis for a call, the keyword for go and
// defer, the statement or operator for the others.
func instrPos(instr ssa.Instruction) token.Pos {
	if c, ok := instr.(*ssa.Call); ok {
		return c.Common().Pos()
	}
	return instr.Pos()
}

// Sites returns the scheduling points of the analyzed functions by line:
// the instructions for which Op is not "". Issue-style uses (changed
// lines, targets) map a line to the scheduling points there with it.
func (p *Program) Sites() map[Line][]ssa.Instruction {
	out := map[Line][]ssa.Instruction{}
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if p.Op(instr) == "" {
					continue
				}
				if l, ok := p.LineOf(instr); ok {
					out[l] = append(out[l], instr)
				}
			}
		}
	}
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// fresh reports a store into memory allocated in the same block and not
// used yet but to be filled (composite literals, new(T) then its fields,
// a variadic call's arguments): no other goroutine can see it, and the
// rewriter puts no scheduling point there. Computed once per block.
func (p *Program) fresh(st *ssa.Store) bool {
	b := st.Block()
	p.freshMu.Lock()
	defer p.freshMu.Unlock()
	m, ok := p.freshStores[b]
	if !ok {
		m = freshStores(b)
		if p.freshStores == nil {
			p.freshStores = map[*ssa.BasicBlock]map[*ssa.Store]bool{}
		}
		p.freshStores[b] = m
	}
	return m[st]
}

// freshStores walks a block in order: an allocation of the block escapes
// at its first use other than an address computation, a load or a store
// into it; stores into it before that fill fresh memory.
func freshStores(b *ssa.BasicBlock) map[*ssa.Store]bool {
	var out map[*ssa.Store]bool
	escaped := map[*ssa.Alloc]bool{}
	base := func(v ssa.Value) *ssa.Alloc {
		for {
			switch a := v.(type) {
			case *ssa.FieldAddr:
				v = a.X
				continue
			case *ssa.IndexAddr:
				v = a.X
				continue
			case *ssa.Alloc:
				if a.Block() == b {
					return a
				}
			}
			return nil
		}
	}
	var ops []*ssa.Value
	for _, instr := range b.Instrs {
		switch in := instr.(type) {
		case *ssa.Store:
			if a := base(in.Addr); a != nil && !escaped[a] {
				if out == nil {
					out = map[*ssa.Store]bool{}
				}
				out[in] = true
			}
			if a := base(in.Val); a != nil {
				escaped[a] = true // its address is stored
			}
			continue
		case *ssa.FieldAddr, *ssa.IndexAddr:
			continue
		case *ssa.UnOp:
			if in.Op == token.MUL {
				continue
			}
		}
		ops = instr.Operands(ops[:0])
		for _, o := range ops {
			if o == nil || *o == nil {
				continue
			}
			if a := base(*o); a != nil {
				escaped[a] = true
			}
		}
	}
	return out
}
