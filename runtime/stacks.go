package runtime

import (
	"bytes"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Stack replaces runtime.Stack. What a program reads there is its own
// goroutines as go test would run them, not the machinery that runs them
// under the scheduler: leak checkers (goleak) compare the goroutines they
// find against the ones they expect, tests count them or look for their
// own frames and creators. So the dump leaves out the goroutines of the
// runtime (the watchdog, the goroutine waiting for the execution to end,
// those of earlier executions) and the runtime's frames; the execution's
// goroutines are shown created where their go statement is, in the state
// their scheduling puts them in (blocked on a channel rather than parked
// in the runtime; runnable while another holds the token), and the test
// goroutine is shown where testing started it. With all set it is a
// scheduling point, as NumGoroutine is: it reads what every other
// goroutine is doing.
//
//go:norace
func Stack(buf []byte, all bool) int {
	e, me := enter()
	if e != nil && all && e.set.free&ctlGoroutines == 0 && !e.yield(me, opStack) {
		e = nil
	}
	var v stackView
	if e != nil {
		// A goroutine just spawned learns its Go id when it first runs
		// (run): until then its dump could not be told from an earlier
		// execution's, and it would be left out.
		for {
			e.mu.Lock()
			started := true
			for _, g := range e.gs {
				if g.goid == 0 && g.state != gDone && !g.adopted {
					started = false
				}
			}
			if started {
				break
			}
			e.mu.Unlock()
			runtime.Gosched()
		}
		v = newStackView(e.gs, e.main, me)
		v.host = e.host
		e.mu.Unlock()
	}
	// The test goroutine's own dump needs the goroutine that started it
	// (the bottom of its stack): the dump of all is taken, and cut.
	return copy(buf, programStacks(rawStack(all || v.main == v.running && e != nil), v, !all))
}

// testBodies maps the function name of the closure the rewriter made of a
// test function's body (Test's body: TestX.func1, the one closure of the
// rewritten TestX) to the test function's.
var testBodies sync.Map

//go:norace
func noteTestBody(body func(*testing.T)) {
	if fn := runtime.FuncForPC(reflect.ValueOf(body).Pointer()); fn != nil {
		if name, ok := strings.CutSuffix(fn.Name(), ".func1"); ok {
			testBodies.Store(fn.Name(), name)
		}
	}
}

// programName is the name Go gives the function name of a rewritten test
// file in the source as written: the test function's body moved into the
// closure TestX.func1, and the closures of the body, TestX.funcN as
// written, became TestX.func1.N.
//
//go:norace
func programName(name string) string {
	for i := 0; ; {
		j := strings.Index(name[i:], ".func1")
		if j < 0 {
			return name
		}
		j += i
		end := j + len(".func1")
		if test, ok := testBodies.Load(name[:end]); ok {
			rest := name[end:]
			switch {
			case rest == "" || rest[0] == '(' || rest[0] == ' ':
				return test.(string) + rest
			case rest[0] == '.' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9':
				return test.(string) + ".func" + rest[1:]
			}
		}
		i = end
	}
}

// stackView is what an execution knows of its goroutines, by Go id, to
// show them as the program's.
type stackView struct {
	main    int64 // the test goroutine
	mine    map[int64]goroutineView
	running int64 // the caller
	// host is the goroutine that started the test goroutine (the
	// schedule's subtest, runOnce), 0 if unknown: the test goroutine is
	// a worker (pool.go), whose creator is whoever first started it.
	host int64
}

type goroutineView struct {
	state   string // the wait reason to show, "" to keep Go's
	created uintptr
	parent  int64
	// paused: a parallel subtest waiting for its parent's function to
	// return, shown as Go shows it: in testing's t.Parallel (goleak and
	// its kin ignore such goroutines by that frame).
	paused bool
}

// newStackView is the view of the goroutines gs, main the test goroutine,
// me the caller (nil: not one of them). Lock held.
//
//go:norace
func newStackView(gs []*goroutine, main, me *goroutine) stackView {
	v := stackView{mine: make(map[int64]goroutineView, len(gs))}
	if main != nil {
		v.main = main.goid
	}
	if me != nil {
		v.running = me.goid
	}
	for _, g := range gs {
		if g.state == gDone || g.goid == 0 {
			continue
		}
		gv := goroutineView{created: g.created}
		if g.parent >= 0 && g.parent < len(gs) && g != main {
			gv.parent = gs[g.parent].goid
		}
		switch {
		case g == me:
		case g.paused:
			// In testing's t.Parallel, on its barrier until its
			// parent's function returns, or on its way there (it gave
			// its turn to its parent, subtests.go).
			gv.state, gv.paused = "chan receive", true
		case g.state == gRunnable:
			gv.state = "runnable"
		case g.state == gBlocked:
			gv.state = waitReason(g.op)
			gv.paused = g.paused
		}
		v.mine[g.goid] = gv
	}
	return v
}

// waitReason is the state Go shows for a goroutine blocked in op.
//
//go:norace
func waitReason(op opKind) string {
	switch op {
	case opSend:
		return "chan send"
	case opRecv:
		return "chan receive"
	case opSelect:
		return "select"
	case opLock, opRWLock:
		return "sync.Mutex.Lock"
	case opRLock:
		return "sync.RWMutex.RLock"
	case opWait:
		return "sync.WaitGroup.Wait"
	case opCondWait:
		return "sync.Cond.Wait"
	case opSleep, opTimer:
		return "sleep"
	}
	return ""
}

//go:norace
func rawStack(all bool) []byte {
	for n := 64 << 10; ; n *= 2 {
		b := make([]byte, n)
		if m := runtime.Stack(b, all); m < n {
			return b[:m]
		}
	}
}

// ownFrames is the prefix of the function names of this package in a
// traceback.
var ownFrames = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(rawStack).Pointer()).Name()
	return strings.TrimSuffix(name, "rawStack")
}()

// goroutineDump is one goroutine of a traceback: its header line, its
// frames (a function line and, when present, its file line each) and its
// creator's.
type goroutineDump struct {
	id      int64
	header  string
	frames  [][2]string
	creator [2]string
}

//go:norace
func parseDump(raw []byte) []goroutineDump {
	var out []goroutineDump
	for _, block := range bytes.Split(raw, []byte("\n\n")) {
		lines := strings.Split(strings.TrimRight(string(block), "\n"), "\n")
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "goroutine ") {
			continue
		}
		d := goroutineDump{header: lines[0]}
		if f := strings.Fields(lines[0]); len(f) > 1 {
			d.id, _ = strconv.ParseInt(f[1], 10, 64)
		}
		for i := 1; i < len(lines); i++ {
			fr := [2]string{lines[i], ""}
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
				fr[1] = lines[i+1]
				i++
			}
			if strings.HasPrefix(fr[0], "created by ") {
				d.creator = fr
			} else {
				d.frames = append(d.frames, fr)
			}
		}
		out = append(out, d)
	}
	return out
}

//go:norace
func isOwnFrame(line string) bool {
	return strings.HasPrefix(strings.TrimPrefix(line, "created by "), ownFrames)
}

//go:norace
func (d *goroutineDump) hasOwnFrame() bool {
	if isOwnFrame(d.creator[0]) {
		return true
	}
	for _, f := range d.frames {
		if isOwnFrame(f[0]) {
			return true
		}
	}
	return false
}

// isSignalLoop: d is os/signal's goroutine, which the first Notify starts.
//
//go:norace
func (d *goroutineDump) isSignalLoop() bool {
	for _, f := range d.frames {
		if strings.HasPrefix(f[0], "os/signal.loop(") {
			return true
		}
	}
	return false
}

//go:norace
func (d *goroutineDump) programFrames() [][2]string {
	var out [][2]string
	for _, f := range d.frames {
		if !isOwnFrame(f[0]) {
			out = append(out, f)
		}
	}
	return out
}

// programStacks rewrites the traceback raw, whose first goroutine is the
// caller's, as the program's (Stack).
//
//go:norace
func programStacks(raw []byte, v stackView, first bool) []byte {
	dumps := parseDump(raw)
	byID := make(map[int64]*goroutineDump, len(dumps))
	for i := range dumps {
		byID[dumps[i].id] = &dumps[i]
	}
	var b strings.Builder
	for i := range dumps {
		if first && i > 0 {
			break
		}
		d := &dumps[i]
		gv, mine := v.mine[d.id]
		if i > 0 && !mine && (d.hasOwnFrame() || notifies.Load() && d.isSignalLoop()) {
			continue
		}
		frames, creator, header := d.programFrames(), d.creator, d.header
		if mine && gv.state != "" {
			header = withState(header, gv.state)
		}
		if mine && gv.paused {
			frames = append([][2]string{parallelFrame()}, frames...)
		}
		if mine && isOwnFrame(creator[0]) {
			if d.id == v.main {
				// Shown as testing ran it: below the test
				// function, what is left of the goroutine that
				// started the execution (testing.tRunner, and
				// testing.(*T).Run as its creator).
				host := v.host
				if host == 0 {
					host = creatorGoid(creator[0])
				}
				if s := byID[host]; s != nil {
					frames = append(frames, s.programFrames()...)
					creator = s.creator
				}
			} else if gv.created != 0 {
				creator = createdBy(gv.created, gv.parent)
			}
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(header + "\n")
		for _, f := range frames {
			writeFrame(&b, f)
		}
		if creator[0] != "" {
			writeFrame(&b, creator)
		}
	}
	return []byte(b.String())
}

//go:norace
func writeFrame(b *strings.Builder, f [2]string) {
	if c, ok := strings.CutPrefix(f[0], "created by "); ok {
		f[0] = "created by " + programName(c)
	} else {
		f[0] = programName(f[0])
	}
	b.WriteString(f[0] + "\n")
	if f[1] != "" {
		b.WriteString(f[1] + "\n")
	}
}

// withState replaces the wait reason in a header line, "goroutine 7
// [chan receive, 2 minutes]:", keeping what follows it.
//
//go:norace
func withState(header, state string) string {
	i := strings.IndexByte(header, '[')
	j := strings.IndexByte(header, ']')
	if i < 0 || j < i {
		return header
	}
	rest := header[i+1 : j]
	if k := strings.IndexByte(rest, ','); k >= 0 {
		state += rest[k:]
	}
	return header[:i+1] + state + header[j:]
}

//go:norace
func creatorGoid(line string) int64 {
	i := strings.LastIndex(line, " in goroutine ")
	if i < 0 {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(line[i+len(" in goroutine "):]), 10, 64)
	return n
}

// createdBy is the creator lines Go prints for a goroutine started by the
// go statement whose call of Go returns to pc, in goroutine parent.
//
//go:norace
func createdBy(pc uintptr, parent int64) [2]string {
	fn := runtime.FuncForPC(pc - 1)
	if fn == nil {
		return [2]string{}
	}
	file, line := fn.FileLine(pc - 1)
	c := "created by " + fn.Name()
	if parent != 0 {
		c += " in goroutine " + strconv.FormatInt(parent, 10)
	}
	return [2]string{c, "\t" + file + ":" + strconv.Itoa(line) + " +0x" + strconv.FormatUint(uint64(pc-fn.Entry()), 16)}
}

// parallelFrame is the frame of testing's t.Parallel, where Go shows a
// parallel subtest waiting for its parent.
//
//go:norace
func parallelFrame() [2]string {
	f := runtime.FuncForPC(reflect.ValueOf((*testing.T).Parallel).Pointer())
	if f == nil {
		return [2]string{"testing.(*T).Parallel(...)", ""}
	}
	file, line := f.FileLine(f.Entry())
	return [2]string{f.Name() + "(...)", "\t" + file + ":" + itoa(line)}
}
