package runtime

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Generated programs for the differential check of dpor against dfs
// (gendiff_test.go): a small language of goroutines over every operation
// the runtime models, an interpreter that runs a program through the hooks
// as the rewriter would emit them (in process, under the real runtime, no
// compilation per program), a random generator sized so that dfs exhausts
// most programs, and a shrinker.
//
// A program is a tree of statements: the test goroutine's block, with the
// blocks of go statements, critical sections, Once functions and AfterFunc
// callbacks nested in it. Every statement runs at most once (there are no
// loops but a Cond's predicate loop), so a goroutine is named by the go
// statement (or AfterFunc) that started it. What an execution reaches, its
// outcome, is how it ended (a bug's kind, and where: the statements the
// goroutines stood at) and, without a bug, the final values and what each
// goroutine observed, in its own order: the same in every schedule of one
// Mazurkiewicz trace.

// gOp is a statement's operation.
type gOp uint8

const (
	genWrite      gOp = iota + 1 // vars[a] = b
	genRead                      // observe vars[a]
	genInc                       // vars[a]++ (a read, then a write)
	genAtomicAdd                 // atomic add 1 to atoms[a]
	genAtomicLoad                // observe atoms[a]
	genAtomicCAS                 // observe CompareAndSwap(atoms[a], b, b+1)
	genSend                      // chans[a] <- b
	genRecv                      // observe <-chans[a] (value, ok)
	genClose                     // close(chans[a])
	genSelect                    // select over cases, with a default if b == 1; observe the case
	genLock                      // mus[a].Lock(); body; mus[a].Unlock()
	genTryLock                   // if mus[a].TryLock() { body; Unlock }; observe
	genRLock                     // rws[a].RLock(); body; RUnlock()
	genWLock                     // rws[a].Lock(); body; Unlock()
	genTryRLock                  // if rws[a].TryRLock() { body; RUnlock }; observe
	genTryWLock                  // if rws[a].TryLock() { body; Unlock }; observe
	genAdd                       // wgs[a].Add(b)
	genDone                      // wgs[a].Done()
	genWait                      // wgs[a].Wait()
	genOnce                      // onces[a].Do(body)
	genCondWait                  // L.Lock(); for flags[a] == 0 { conds[a].Wait() }; L.Unlock()
	genCondWait1                 // L.Lock(); conds[a].Wait(); L.Unlock(): no predicate
	genSignal                    // L.Lock(); flags[a] = 1; conds[a].Signal(); L.Unlock()
	genBroadcast                 // the same with Broadcast
	genGo                        // go body
	genGosched                   // runtime.Gosched()
	genSleep                     // time.Sleep(b ms)
	genAfterFunc                 // timers[a] = time.AfterFunc(b ms, body)
	genStop                      // observe timers[a].Stop()
	genCancel                    // cancels[a]()
	genCtxDone                   // <-ctxs[a].Done()
	genAfter                     // a select case only: <-time.After(b ms)
	genSeq                       // body, inline
	genLoad                      // the goroutine's register = vars[a] (a local)
	genStoreReg                  // vars[a] = the goroutine's register + b
)

var gOpNames = [...]string{
	genWrite: "xw", genRead: "xr", genInc: "xinc", genAtomicAdd: "xaadd", genAtomicLoad: "xaload", genAtomicCAS: "xacas",
	genSend: "xsend", genRecv: "xrecv", genClose: "xclose", genSelect: "xselect",
	genLock: "xlock", genTryLock: "xtrylock", genRLock: "xrlock", genWLock: "xwlock", genTryRLock: "xtryrlock", genTryWLock: "xtrywlock",
	genAdd: "xadd", genDone: "xdone", genWait: "xwait", genOnce: "xonce",
	genCondWait: "xcondwait", genCondWait1: "xcondwait1", genSignal: "xsignal", genBroadcast: "xbroadcast",
	genGo: "xgo", genGosched: "xgosched", genSleep: "xsleep", genAfterFunc: "xafterfunc", genStop: "xstop",
	genCancel: "xcancel", genCtxDone: "xctxdone", genAfter: "xafter", genSeq: "xseq",
	genLoad: "xld", genStoreReg: "xst",
}

// gStmt is a statement; id numbers it within its program (gProg.number).
type gStmt struct {
	op    gOp
	a, b  int
	body  []gStmt
	cases []gStmt // genSelect: genSend, genRecv, genCtxDone, genAfter
	id    int
}

// gProg is a program: the test goroutine's block, and the sizes of the
// objects it uses (counted from its statements) and the capacities of its
// channels.
type gProg struct {
	main []gStmt
	caps []int
}

// The constructors, as fixtures are written (gProg.String prints them).
func xw(v, k int) gStmt        { return gStmt{op: genWrite, a: v, b: k} }
func xr(v int) gStmt           { return gStmt{op: genRead, a: v} }
func xinc(v int) gStmt         { return gStmt{op: genInc, a: v} }
func xaadd(v int) gStmt        { return gStmt{op: genAtomicAdd, a: v} }
func xaload(v int) gStmt       { return gStmt{op: genAtomicLoad, a: v} }
func xacas(v, old int) gStmt   { return gStmt{op: genAtomicCAS, a: v, b: old} }
func xsend(c, k int) gStmt     { return gStmt{op: genSend, a: c, b: k} }
func xrecv(c int) gStmt        { return gStmt{op: genRecv, a: c} }
func xclose(c int) gStmt       { return gStmt{op: genClose, a: c} }
func xadd(w, n int) gStmt      { return gStmt{op: genAdd, a: w, b: n} }
func xdone(w int) gStmt        { return gStmt{op: genDone, a: w} }
func xwait(w int) gStmt        { return gStmt{op: genWait, a: w} }
func xcondwait(c int) gStmt    { return gStmt{op: genCondWait, a: c} }
func xcondwait1(c int) gStmt   { return gStmt{op: genCondWait1, a: c} }
func xsignal(c int) gStmt      { return gStmt{op: genSignal, a: c} }
func xbroadcast(c int) gStmt   { return gStmt{op: genBroadcast, a: c} }
func xgosched() gStmt          { return gStmt{op: genGosched} }
func xsleep(ms int) gStmt      { return gStmt{op: genSleep, b: ms} }
func xstop(t int) gStmt        { return gStmt{op: genStop, a: t} }
func xcancel(x int) gStmt      { return gStmt{op: genCancel, a: x} }
func xctxdone(x int) gStmt     { return gStmt{op: genCtxDone, a: x} }
func xafter(ms int) gStmt      { return gStmt{op: genAfter, b: ms} }
func xld(v int) gStmt          { return gStmt{op: genLoad, a: v} }
func xst(v, k int) gStmt       { return gStmt{op: genStoreReg, a: v, b: k} }
func xgo(body ...gStmt) gStmt  { return gStmt{op: genGo, body: body} }
func xseq(body ...gStmt) gStmt { return gStmt{op: genSeq, body: body} }
func xlock(m int, body ...gStmt) gStmt {
	return gStmt{op: genLock, a: m, body: body}
}
func xtrylock(m int, body ...gStmt) gStmt  { return gStmt{op: genTryLock, a: m, body: body} }
func xrlock(m int, body ...gStmt) gStmt    { return gStmt{op: genRLock, a: m, body: body} }
func xwlock(m int, body ...gStmt) gStmt    { return gStmt{op: genWLock, a: m, body: body} }
func xtryrlock(m int, body ...gStmt) gStmt { return gStmt{op: genTryRLock, a: m, body: body} }
func xtrywlock(m int, body ...gStmt) gStmt { return gStmt{op: genTryWLock, a: m, body: body} }
func xonce(o int, body ...gStmt) gStmt     { return gStmt{op: genOnce, a: o, body: body} }
func xafterfunc(t, ms int, body ...gStmt) gStmt {
	return gStmt{op: genAfterFunc, a: t, b: ms, body: body}
}

// xselect is a select over cases, with a default when def.
func xselect(def bool, cases ...gStmt) gStmt {
	s := gStmt{op: genSelect, cases: cases}
	if def {
		s.b = 1
	}
	return s
}

// xprog makes a program of the test goroutine's block, with channels of
// the capacities caps.
func xprog(caps []int, main ...gStmt) *gProg {
	p := &gProg{main: main, caps: caps}
	p.number()
	return p
}

// number gives every statement its id, in the order of the text.
func (p *gProg) number() {
	n := 0
	var walk func(b []gStmt)
	walk = func(b []gStmt) {
		for i := range b {
			n++
			b[i].id = n
			walk(b[i].cases)
			walk(b[i].body)
		}
	}
	walk(p.main)
}

// walk calls f for every statement, cases and bodies included.
func (p *gProg) walk(f func(s *gStmt)) {
	var w func(b []gStmt)
	w = func(b []gStmt) {
		for i := range b {
			f(&b[i])
			w(b[i].cases)
			w(b[i].body)
		}
	}
	w(p.main)
}

// gObjs are the numbers of objects of each kind a program uses.
type gObjs struct {
	vars, atoms, chans, mus, rws, wgs, onces, conds, timers, ctxs int
}

func (p *gProg) objs() gObjs {
	var o gObjs
	grow := func(n *int, i int) {
		if i+1 > *n {
			*n = i + 1
		}
	}
	p.walk(func(s *gStmt) {
		switch s.op {
		case genWrite, genRead, genInc, genLoad, genStoreReg:
			grow(&o.vars, s.a)
		case genAtomicAdd, genAtomicLoad, genAtomicCAS:
			grow(&o.atoms, s.a)
		case genSend, genRecv, genClose:
			grow(&o.chans, s.a)
		case genLock, genTryLock:
			grow(&o.mus, s.a)
		case genRLock, genWLock, genTryRLock, genTryWLock:
			grow(&o.rws, s.a)
		case genAdd, genDone, genWait:
			grow(&o.wgs, s.a)
		case genOnce:
			grow(&o.onces, s.a)
		case genCondWait, genCondWait1, genSignal, genBroadcast:
			grow(&o.conds, s.a)
		case genAfterFunc, genStop:
			grow(&o.timers, s.a)
		case genCancel, genCtxDone:
			grow(&o.ctxs, s.a)
		}
	})
	if o.chans > len(p.caps) {
		o.chans = len(p.caps)
	}
	return o
}

// String writes the program as the Go expression that makes it.
func (p *gProg) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "xprog(%#v", p.caps)
	for _, s := range p.main {
		b.WriteString(", ")
		s.write(&b)
	}
	b.WriteString(")")
	return strings.Replace(b.String(), "xprog([]int(nil)", "xprog(nil", 1)
}

func (s *gStmt) write(b *strings.Builder) {
	var parts []string
	switch s.op {
	case genWrite, genAtomicCAS, genSend, genAdd, genAfterFunc, genStoreReg:
		parts = []string{fmt.Sprint(s.a), fmt.Sprint(s.b)}
	case genSleep, genAfter:
		parts = []string{fmt.Sprint(s.b)}
	case genGo, genGosched, genSeq:
	case genSelect:
		parts = []string{fmt.Sprint(s.b == 1)}
	default:
		parts = []string{fmt.Sprint(s.a)}
	}
	for _, c := range append(s.cases[:len(s.cases):len(s.cases)], s.body...) {
		var cb strings.Builder
		c.write(&cb)
		parts = append(parts, cb.String())
	}
	b.WriteString(gOpNames[s.op] + "(" + strings.Join(parts, ", ") + ")")
}

// size is the number of statements of p.
func (p *gProg) size() int {
	n := 0
	p.walk(func(*gStmt) { n++ })
	return n
}

// clone copies p deeply.
func (p *gProg) clone() *gProg {
	var cp func(b []gStmt) []gStmt
	cp = func(b []gStmt) []gStmt {
		if b == nil {
			return nil
		}
		out := make([]gStmt, len(b))
		for i, s := range b {
			s.body, s.cases = cp(s.body), cp(s.cases)
			out[i] = s
		}
		return out
	}
	q := &gProg{main: cp(p.main), caps: append([]int(nil), p.caps...)}
	q.number()
	return q
}

// gState is one execution of a program: its objects, and what the
// interpreter saw.
type gState struct {
	p       *gProg
	vars    []int
	atoms   []int64
	chans   []chan int
	mus     []sync.Mutex
	rws     []sync.RWMutex
	wgs     []sync.WaitGroup
	onces   []sync.Once
	condMus []sync.Mutex
	conds   []*sync.Cond
	flags   []int
	timers  []*time.Timer
	ctxs    []context.Context
	cancels []context.CancelFunc

	// published: what each goroutine observed, stored through a hook
	// when it ends (indexed by the id of the statement that started it,
	// 0 for the test goroutine), when publish is set.
	published []uint64
	publish   bool

	// The interpreter's own bookkeeping, with a real mutex: no scheduling
	// point.
	mu       sync.Mutex
	regs     map[string]int // goroutine -> its register (genLoad)
	pos      map[string]int // goroutine -> statement it stands at; 0: ended
	logs     map[string][]string
	panicked []string
}

func newGState(p *gProg) *gState {
	o := p.objs()
	st := &gState{p: p, vars: make([]int, o.vars), atoms: make([]int64, o.atoms),
		mus: make([]sync.Mutex, o.mus), rws: make([]sync.RWMutex, o.rws), wgs: make([]sync.WaitGroup, o.wgs),
		onces: make([]sync.Once, o.onces), condMus: make([]sync.Mutex, o.conds), flags: make([]int, o.conds),
		timers: make([]*time.Timer, o.timers), ctxs: make([]context.Context, o.ctxs), cancels: make([]context.CancelFunc, o.ctxs),
		pos: map[string]int{}, logs: map[string][]string{}, regs: map[string]int{},
		published: make([]uint64, p.size()+1)}
	for i := 0; i < o.chans; i++ {
		st.chans = append(st.chans, make(chan int, p.caps[i]))
	}
	for i := range st.condMus {
		st.conds = append(st.conds, sync.NewCond(&st.condMus[i]))
	}
	return st
}

// run is the test function of an execution of the program.
func (st *gState) run(t *testing.T) {
	for i := range st.chans {
		st.chans[i] = Chan(st.chans[i])
	}
	for i := range st.ctxs {
		st.ctxs[i], st.cancels[i] = WithCancel(context.Background())
	}
	st.goroutine("g0", 0, st.p.main)
}

// goroutine runs block b as goroutine g (started by statement id), noting
// where it stands and, if it panics, where.
func (st *gState) goroutine(g string, id int, b []gStmt) {
	st.at(g, -1)
	defer func() {
		if r := recover(); r != nil {
			st.mu.Lock()
			st.panicked = append(st.panicked, fmt.Sprintf("%s@%d: %v", g, st.pos[g], r))
			st.mu.Unlock()
			panic(r)
		}
		// Ended by the execution's end (runtime.Goexit at a bug): it
		// stands where it was.
	}()
	st.block(g, b)
	// Ended as far as the outcome goes: the store below changes nothing
	// another goroutine can see but its own variable.
	st.at(g, 0)
	if st.publish {
		st.publishLog(g, id)
	}
}

// publishLog stores what g observed into a variable of its own, through
// the hooks. The log is memory no hook touches, which a state signature
// cannot see: a goroutine's locals are covered while it runs (what it
// learnt), not once it has ended, so two states that differ only in what
// an ended goroutine observed match, and dpor --states lost the outcomes
// that combine one of its observations with what the others do later. A
// real program keeps nothing of an ended goroutine but what it wrote; the
// store is that write. It is an independent step (no other goroutine
// touches the variable), so dfs and dpor reach the same outcomes without
// it, and only the runs that match states pay for it.
func (st *gState) publishLog(g string, id int) {
	st.mu.Lock()
	h := fnv.New64a()
	for _, o := range st.logs[g] {
		h.Write([]byte(o))
		h.Write([]byte{0})
	}
	st.mu.Unlock()
	Store(&st.published[id], h.Sum64())
}

func (st *gState) at(g string, id int) {
	st.mu.Lock()
	st.pos[g] = id
	st.mu.Unlock()
}

func (st *gState) observe(g string, format string, args ...any) {
	st.mu.Lock()
	st.logs[g] = append(st.logs[g], fmt.Sprintf(format, args...))
	st.mu.Unlock()
}

func (st *gState) block(g string, b []gStmt) {
	for i := range b {
		st.stmt(g, &b[i])
	}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// stmt runs one statement, through the hooks, as the rewriter writes it.
func (st *gState) stmt(g string, s *gStmt) {
	st.at(g, s.id)
	switch s.op {
	case genWrite:
		Store(&st.vars[s.a], s.b)
	case genRead:
		st.observe(g, "r%d=%d", s.a, Load(&st.vars[s.a]))
	case genInc:
		Store(&st.vars[s.a], Load(&st.vars[s.a])+1)
	case genAtomicAdd:
		Then(Atomic(&st.atoms[s.a]), atomic.AddInt64(&st.atoms[s.a], 1))
	case genAtomicLoad:
		st.observe(g, "a%d=%d", s.a, Then(AtomicLoad(&st.atoms[s.a]), atomic.LoadInt64(&st.atoms[s.a])))
	case genAtomicCAS:
		ok := ThenCAS(AtomicCAS(&st.atoms[s.a]), atomic.CompareAndSwapInt64(&st.atoms[s.a], int64(s.b), int64(s.b)+1))
		st.observe(g, "cas%d=%v", s.a, ok)
	case genSend:
		Send(st.chans[s.a], s.b)
	case genRecv:
		v, ok := Recv2(st.chans[s.a])
		st.observe(g, "c%d->%d,%v", s.a, v, ok)
	case genClose:
		Close(st.chans[s.a])
	case genSelect:
		st.selectStmt(g, s)
	case genLock:
		Lock(&st.mus[s.a])
		st.block(g, s.body)
		st.at(g, s.id)
		Unlock(&st.mus[s.a])
	case genTryLock:
		ok := TryLock(&st.mus[s.a])
		st.observe(g, "try%d=%v", s.a, ok)
		if ok {
			st.block(g, s.body)
			st.at(g, s.id)
			Unlock(&st.mus[s.a])
		}
	case genRLock:
		RLock(&st.rws[s.a])
		st.block(g, s.body)
		st.at(g, s.id)
		RUnlock(&st.rws[s.a])
	case genWLock:
		RWLock(&st.rws[s.a])
		st.block(g, s.body)
		st.at(g, s.id)
		RWUnlock(&st.rws[s.a])
	case genTryRLock:
		ok := TryRLock(&st.rws[s.a])
		st.observe(g, "tryr%d=%v", s.a, ok)
		if ok {
			st.block(g, s.body)
			st.at(g, s.id)
			RUnlock(&st.rws[s.a])
		}
	case genTryWLock:
		ok := RWTryLock(&st.rws[s.a])
		st.observe(g, "tryw%d=%v", s.a, ok)
		if ok {
			st.block(g, s.body)
			st.at(g, s.id)
			RWUnlock(&st.rws[s.a])
		}
	case genAdd:
		Add(&st.wgs[s.a], s.b)
	case genDone:
		Done(&st.wgs[s.a])
	case genWait:
		Wait(&st.wgs[s.a])
	case genOnce:
		Do(&st.onces[s.a], func() { st.block(g, s.body); st.at(g, s.id) })
	case genCondWait:
		Lock(&st.condMus[s.a])
		for Load(&st.flags[s.a]) == 0 {
			CondWait(st.conds[s.a])
		}
		Unlock(&st.condMus[s.a])
	case genCondWait1:
		Lock(&st.condMus[s.a])
		CondWait(st.conds[s.a])
		Unlock(&st.condMus[s.a])
	case genSignal, genBroadcast:
		Lock(&st.condMus[s.a])
		Store(&st.flags[s.a], 1)
		if s.op == genSignal {
			Signal(st.conds[s.a])
		} else {
			Broadcast(st.conds[s.a])
		}
		Unlock(&st.condMus[s.a])
	case genGo:
		name := fmt.Sprintf("g%d", s.id)
		Go(func() { st.goroutine(name, s.id, s.body) })
	case genGosched:
		Gosched()
	case genSleep:
		Sleep(ms(s.b))
	case genAfterFunc:
		name := fmt.Sprintf("t%d", s.id)
		Store(&st.timers[s.a], AfterFunc(ms(s.b), func() { st.goroutine(name, s.id, s.body) }))
	case genStop:
		if tm := Load(&st.timers[s.a]); tm != nil {
			st.observe(g, "stop%d=%v", s.a, TimerStop(tm))
		} else {
			st.observe(g, "stop%d=nil", s.a)
		}
	case genCancel:
		st.cancels[s.a]()
	case genCtxDone:
		Recv(st.ctxs[s.a].Done())
	case genSeq:
		st.block(g, s.body)
	case genLoad:
		v := Load(&st.vars[s.a])
		st.mu.Lock()
		st.regs[g] = v
		st.mu.Unlock()
	case genStoreReg:
		st.mu.Lock()
		v := st.regs[g]
		st.mu.Unlock()
		Store(&st.vars[s.a], v+s.b)
	}
}

// selectStmt runs a select and observes the case taken.
func (st *gState) selectStmt(g string, s *gStmt) {
	cases := make([]Case, len(s.cases))
	recvs := make([]*RecvCase[int], len(s.cases))
	for i, c := range s.cases {
		switch c.op {
		case genSend:
			cases[i] = OnSend(st.chans[c.a], c.b)
		case genRecv:
			recvs[i] = OnRecv(st.chans[c.a])
			cases[i] = recvs[i]
		case genCtxDone:
			cases[i] = OnRecv(st.ctxs[c.a].Done())
		case genAfter:
			cases[i] = OnRecv(After(ms(c.b)))
		}
	}
	i := Select(s.b == 1, cases...)
	switch {
	case i < 0 || i >= len(cases):
		st.observe(g, "sel=default")
	case recvs[i] != nil:
		st.observe(g, "sel=%d:%d,%v", i, recvs[i].Value, recvs[i].OK)
	default:
		st.observe(g, "sel=%d", i)
	}
}

// outcome says how the execution that ran st ended: the bug (kind and
// where the goroutines stood) or, without one, the final values and what
// each goroutine observed.
func (st *gState) outcome(e *execution) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var names []string
	for g := range st.pos {
		names = append(names, g)
	}
	sort.Strings(names)
	var b strings.Builder
	logs := func(only string) {
		for _, g := range names {
			if l := st.logs[g]; len(l) > 0 && (only == "" || only == g) {
				fmt.Fprintf(&b, " %s[%s]", g, strings.Join(l, " "))
			}
		}
	}
	if e.bug != nil && e.bug.kind == kindPanic && len(st.panicked) > 0 {
		// The goroutine that panicked, where, and what it observed:
		// where the others stood depends on how far they had got.
		p := st.panicked[0]
		fmt.Fprintf(&b, "panic %s;", p)
		logs(p[:strings.IndexByte(p, '@')])
		return b.String()
	}
	if e.bug != nil {
		b.WriteString(e.bug.kind)
		for _, g := range names {
			if st.pos[g] != 0 {
				fmt.Fprintf(&b, " %s@%d", g, st.pos[g])
			}
		}
		b.WriteString(";")
	} else {
		b.WriteString("ok;")
	}
	fmt.Fprintf(&b, " vars%v atoms%v flags%v;", st.vars, st.atoms, st.flags)
	logs("")
	return b.String()
}
