package runtime

import (
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/strategies"
)

// The frame pointer walk (record) against runtime.Callers, the way it
// replaced: at many points (call depths around the 16-frame cap, inlined
// and not inlined helpers, closures, generic functions and methods,
// deferred calls run on return, in a panic, after a nil dereference and
// after a nil receiver's wrapper, runtime.Goexit, goroutines started with
// go, method values and promoted methods, reflect, sort's callbacks,
// range-over-func bodies) a stack is recorded both ways from one call
// site, and the program counters runtime.Callers would give and the
// frames Where gives must be the same.

// fptSample is one point's stack, recorded both ways.
type fptSample struct {
	name string
	fp   stackPos // frame pointers
	cl   stackPos // runtime.Callers
}

var (
	fptMu      sync.Mutex
	fptSamples []*fptSample
)

// recordBoth records its caller's stack both ways, from one call site (so
// the program counters are the same). Its own frame counts but is left
// out (its name lacks "fpt").
func recordBoth(name string) {
	s := &fptSample{name: name}
	for i := 0; i < 2; i++ {
		s.at(i == 0).recordAs(i == 0)
	}
	fptMu.Lock()
	fptSamples = append(fptSamples, s)
	fptMu.Unlock()
}

func (s *fptSample) at(fp bool) *stackPos {
	if fp {
		return &s.fp
	}
	return &s.cl
}

// recordBothNoinline is recordBoth, a frame of its own.
//
//go:noinline
func recordBothNoinline(name string) { recordBoth(name) }

// fptDepth records after n more frames of its own.
//
//go:noinline
func fptDepth(n int, name string, inl bool) {
	if n > 0 {
		fptDepth(n-1, name, inl)
		return
	}
	if inl {
		recordBoth(name)
	} else {
		recordBothNoinline(name)
	}
}

// Small helpers the compiler inlines, and one it does not.
func fptInlA(k func()) { fptInlB(k) }
func fptInlB(k func()) { fptInlC(k) }
func fptInlC(k func()) { k() }

//go:noinline
func fptNoinline(k func()) { fptInlA(k) }

type fptBox[T any] struct{ v T }

//go:noinline
func (b *fptBox[T]) run(k func(T)) { k(b.v) }

func fptGen[T any](v T, n int, k func()) {
	if n > 0 {
		fptGen(v, n-1, k)
		return
	}
	b := &fptBox[T]{v}
	b.run(func(T) { k() })
}

type fptT struct{ k func() }

func (t *fptT) m() { t.k() }

//go:noinline
func (t *fptT) big() {
	for i := 0; i < 1; i++ {
		t.k()
	}
}

type fptEmbed struct{ *fptT }

type fptIface interface{ m() }

type fptV struct{}

func (fptV) m() {}

// fptIfaceOf hides the dynamic type from the compiler (which would call
// fptV.m directly): the call goes through (*fptV).m, the wrapper that
// calls runtime.panicwrap on a nil receiver.
//
//go:noinline
func fptIfaceOf(p *fptV) fptIface { return p }

//go:noinline
func fptNilDeref(p *int) { *p = 1 }

//go:noinline
func fptCallK(k func(), x int) {
	if x > 0 {
		k()
	}
}

func fptSeq(yield func(int) bool) {
	for i := 0; i < 2; i++ {
		if !yield(i) {
			return
		}
	}
}

// fptShapes each put some kind of frames on the stack, then call k.
var fptShapes = []struct {
	name string
	run  func(k func())
}{
	{"direct", func(k func()) { k() }},
	{"inlined", func(k func()) { fptInlA(k) }},
	{"noinline", func(k func()) { fptNoinline(k) }},
	{"closure", func(k func()) {
		x := 1
		f := func() {
			x++
			k()
		}
		f()
	}},
	{"generic", func(k func()) { fptGen("s", 2, k) }},
	{"generic-int", func(k func()) { fptGen(3, 0, k) }},
	{"defer", func(k func()) { defer k() }},
	{"defer-args", func(k func()) { defer fptCallK(k, 1) }},
	{"defer-loop", func(k func()) {
		for i := 0; i < 2; i++ {
			if i == 1 {
				defer k()
			}
		}
	}},
	{"panic", func(k func()) {
		defer func() { _ = recover() }()
		defer func() { k() }()
		panic("fpt")
	}},
	{"sigpanic", func(k func()) {
		defer func() { _ = recover() }()
		defer func() { k() }()
		fptNilDeref(nil)
	}},
	{"panicwrap", func(k func()) {
		defer func() { _ = recover() }()
		defer func() { k() }()
		fptIfaceOf(nil).m()
	}},
	{"goexit", func(k func()) {
		done := make(chan bool)
		go func() {
			defer close(done)
			defer k()
			runtime.Goexit()
		}()
		<-done
	}},
	{"go-args", func(k func()) {
		done := make(chan bool)
		go fptGo(k, done, 1)
		<-done
	}},
	{"go-closure", func(k func()) {
		done := make(chan bool)
		go func() {
			k()
			close(done)
		}()
		<-done
	}},
	{"method-value", func(k func()) {
		t := &fptT{k}
		f := t.m
		f()
	}},
	{"method-value-noinline", func(k func()) {
		t := &fptT{k}
		f := t.big
		f()
	}},
	{"method-expr", func(k func()) { (*fptT).big(&fptT{k}) }},
	{"promoted", func(k func()) {
		var i fptIface = fptEmbed{&fptT{k}}
		i.m()
	}},
	{"reflect-call", func(k func()) { reflect.ValueOf(k).Call(nil) }},
	{"reflect-makefunc", func(k func()) {
		f := reflect.MakeFunc(reflect.TypeOf(k), func([]reflect.Value) []reflect.Value {
			k()
			return nil
		}).Interface().(func())
		f()
	}},
	{"sort", func(k func()) {
		s := []int{3, 1, 2}
		done := false
		sort.Slice(s, func(i, j int) bool {
			if !done {
				done = true
				k()
			}
			return s[i] < s[j]
		})
	}},
	{"once", func(k func()) {
		var o sync.Once
		o.Do(k)
	}},
	{"range-func", func(k func()) {
		for i := range fptSeq {
			if i == 1 {
				k()
			}
		}
	}},
}

//go:noinline
func fptGo(k func(), done chan bool, x int) {
	fptCallK(k, x)
	close(done)
}

// fptWhere is what Where gives for a goroutine whose recorded stack is w.
func fptWhere(w stackPos) []strategies.Frame {
	gs := []*goroutine{{op: opLock}}
	gs[0].at = &w
	l := &locator{gs: &gs}
	_, frames, _ := l.Where(0)
	return frames
}

func fptFormat(fs []strategies.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, " %s:%d", f.File[strings.LastIndexByte(f.File, '/')+1:], f.Line)
	}
	return b.String()
}

// withTestFrames makes Where keep this file's test functions (named
// fpt..., TestRecord..., and fptShapes' closures, made by the package's
// init), and empties the caches of resolved frames before and after.
func withTestFrames(t *testing.T) {
	old := internalFrame
	internalFrame = func(fn string) bool {
		return isRuntimeFrame(fn) && !strings.Contains(fn, "fpt") && !strings.Contains(fn, ".TestRecord") && !strings.Contains(fn, ".init.func")
	}
	resetFrameCaches()
	t.Cleanup(func() {
		internalFrame = old
		resetFrameCaches()
	})
}

func resetFrameCaches() {
	pcFramesMu.Lock()
	pcFrames = map[uintptr][]strategies.Frame{}
	physCache = map[uintptr]*physEntry{}
	pcFramesMu.Unlock()
}

// fptStart readies a test that compares samples: skipped where there is
// no walk, failed where it did not calibrate, samples emptied.
func fptStart(t *testing.T) {
	if !haveFP {
		t.Skip("no frame pointer walk on " + runtime.GOARCH)
	}
	fpCalibrate()
	if !fpOn {
		t.Fatalf("frame pointer walk not calibrated on %s", runtime.GOARCH)
	}
	withTestFrames(t)
	fptTake()
}

// fptTake returns the samples recorded since the last call.
func fptTake() []*fptSample {
	fptMu.Lock()
	defer fptMu.Unlock()
	s := fptSamples
	fptSamples = nil
	return s
}

func TestRecordFramePointersAsCallers(t *testing.T) {
	fptStart(t)
	for _, sh := range fptShapes {
		for d := 0; d <= 20; d++ {
			for _, inl := range []bool{true, false} {
				name := fmt.Sprintf("%s/depth%d/inl=%v", sh.name, d, inl)
				// The shape's frames below, then d frames.
				sh.run(func() { fptDepth(d, name, inl) })
				// d frames below, then the shape's.
				fptDepthThen(d, func() { sh.run(func() { recordBoth(name + "/inner") }) })
			}
		}
	}
	samples := fptTake()
	if want := len(fptShapes) * 21 * 2 * 2; len(samples) != want {
		t.Fatalf("%d samples, want %d", len(samples), want)
	}
	capped, user := 0, 0
	for _, s := range samples {
		if !s.cl.logical {
			t.Fatalf("%s: not recorded by runtime.Callers", s.name)
		}
		// The walk gives up (runtime.Callers records) on a stack through
		// runtime.sigpanic, and only there.
		if sigpanic := strings.HasPrefix(s.name, "sigpanic/"); s.fp.logical != sigpanic {
			t.Fatalf("%s: recorded by runtime.Callers: %v (%s)", s.name, s.fp.logical, fptFuncs(s.cl.pcs[:s.cl.npc]))
		}
		b := s.compare(t)
		if s.cl.npc == stackDepth {
			capped++
		}
		if b != "" {
			user++
		}
	}
	// The comparisons saw stacks cut by the cap and user frames.
	if capped < len(samples)/4 || user != len(samples) {
		t.Errorf("%d of %d samples capped, %d with user frames", capped, len(samples), user)
	}
}

// compare fails t unless s's frame pointer record expands to the program
// counters runtime.Callers recorded and Where gives the same frames for
// both; it returns Where's frames, formatted.
func (s *fptSample) compare(t *testing.T) string {
	t.Helper()
	var got [stackDepth]uintptr
	n := copy(got[:], s.fp.pcs[:s.fp.npc])
	if !s.fp.logical {
		n = expandWalk(&s.fp, got[:])
	}
	if fmt.Sprint(got[:n]) != fmt.Sprint(s.cl.pcs[:s.cl.npc]) {
		t.Errorf("%s: program counters\n fp      %v\n Callers %v\n (Callers: %s)", s.name, got[:n], s.cl.pcs[:s.cl.npc], fptFuncs(s.cl.pcs[:s.cl.npc]))
	}
	a, b := fptFormat(fptWhere(s.fp)), fptFormat(fptWhere(s.cl))
	if a != b {
		t.Errorf("%s: Where\n fp     %s\n Callers%s", s.name, a, b)
	}
	return b
}

//go:noinline
func fptDepthThen(n int, k func()) {
	if n > 0 {
		fptDepthThen(n-1, k)
		return
	}
	k()
}

func fptFuncs(pcs []uintptr) string {
	var b strings.Builder
	for _, pc := range pcs {
		f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
		b.WriteString(" " + f.Function)
	}
	return b.String()
}

// The fallback: a stack recorded by runtime.Callers resolves as before.
func TestRecordCallersFallback(t *testing.T) {
	withTestFrames(t)
	var w stackPos
	fptRecordCallers(&w)
	if !w.logical || w.npc == 0 {
		t.Fatalf("runtime.Callers recorded nothing")
	}
	fs := fptWhere(w)
	if len(fs) == 0 || !strings.HasSuffix(fs[0].File, "fpwalk_test.go") {
		t.Errorf("Where gave %s, want this test first", fptFormat(fs))
	}
}

//go:noinline
func fptRecordCallers(w *stackPos) { w.recordAs(false) }

// BenchmarkRecord compares recording a stack of about 20 frames by frame
// pointers and by runtime.Callers.
func BenchmarkRecord(b *testing.B) {
	fptBothWays(b, func(b *testing.B, fp bool) {
		fptDepthThen(16, func() {
			var w stackPos
			for i := 0; i < b.N; i++ {
				w.recordAs(fp)
			}
			if fp {
				var got [stackDepth]uintptr
				b.ReportMetric(float64(w.npc), "physical")
				b.ReportMetric(float64(expandWalk(&w, got[:])), "logical")
			} else {
				b.ReportMetric(float64(w.npc), "logical")
			}
		})
	})
}

// fptBothWays runs f as two sub-benchmarks, "callers" and
// "framepointers" (where the walk calibrated).
func fptBothWays(b *testing.B, f func(b *testing.B, fp bool)) {
	fpCalibrate()
	for _, fp := range []bool{false, true} {
		name := "callers"
		if fp {
			name = "framepointers"
			if !fpOn {
				b.Log("no frame pointer walk")
				continue
			}
		}
		b.Run(name, func(b *testing.B) { f(b, fp) })
	}
}

// BenchmarkRecordWhere is a guided step's cost for the running goroutine:
// a record and Where's resolution of it (its caches warm), both ways.
func BenchmarkRecordWhere(b *testing.B) {
	fptBothWays(b, func(b *testing.B, fp bool) {
		fptDepthThen(16, func() {
			gs := []*goroutine{{op: opLock, at: new(stackPos)}}
			l := &locator{gs: &gs}
			w := gs[0].at
			for i := 0; i < b.N; i++ {
				w.recordAs(fp)
				w.moves++
				l.Where(0)
			}
		})
	})
}
