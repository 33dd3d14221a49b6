package runtime

import (
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// A test that fails through t.Error or t.Fatal (or testify's assert, which
// calls t.Errorf) says why in its output. The report of such a failure
// carries the failing schedule's own output, whatever the verbosity:
// without -v, go test shows a failed subtest's lines only when its parent
// ends, and gosct's command not at all; with -v they scroll past among
// those of every schedule the search and the shrinking ran.
//
// testing keeps no public record of what a test wrote, so a testLog reads
// it from testing's unexported fields, through reflection:
//   - without -v, a test's lines wait in its output buffer (common.output)
//     until it ends: the log reads them there before the subtest ends;
//   - with -v (or -json), they go at once to the chatty printer
//     (common.chatty), shared by every test: the schedule's subtest gets a
//     printer of its own for the time it runs, writing where the shared one
//     writes and keeping a copy.
//
// Where a future Go moves these fields, the log knows nothing (known
// false) and the report says the output is in the test binary's output.

// testLog is what one schedule's subtest wrote through its t.
type testLog struct {
	t      *testing.T
	mu     *sync.RWMutex // testing's lock of t's fields
	output reflect.Value // t's common.output ([]byte), valid without -v
	// With -v: tee keeps a copy of what the subtest printed; chatty is t's
	// common.chatty field and shared the printer it held before.
	tee    *teeWriter
	chatty reflect.Value
	shared reflect.Value
}

// lastLog is the last log of a T without -v: it only reads the T's
// buffer, and serves every schedule run in that T.
var lastLog atomic.Pointer[testLog]

// captureLog starts recording what t writes; call it at the start of t's
// function, before t starts goroutines, and stop it before the function
// returns. Nil when testing's layout is not the one expected.
//
//go:norace
func captureLog(t *testing.T) *testLog {
	if t == nil {
		return nil
	}
	if l := lastLog.Load(); l != nil && l.t == t {
		return l // schedules sharing t's subtest (sharing.go), without -v
	}
	c := fieldByName(reflect.ValueOf(t).Elem(), "common")
	if !c.IsValid() {
		return nil
	}
	mu, ok := fieldOf[sync.RWMutex](c, "mu")
	if !ok {
		return nil
	}
	l := &testLog{t: t, mu: mu}
	if out := fieldByName(c, "output"); out.IsValid() && out.Type() == reflect.TypeOf([]byte(nil)) {
		l.output = settable(out)
	}
	ch := fieldByName(c, "chatty")
	if !ch.IsValid() || ch.Kind() != reflect.Pointer || ch.IsNil() {
		if !l.output.IsValid() {
			return nil
		}
		lastLog.Store(l)
		return l // not chatty: the lines wait in the output buffer
	}
	// A printer of the shared one's type: its w a tee, its json mode the
	// same, its last name t's own, which "=== RUN" just printed.
	shared := settable(ch).Elem()
	mine := reflect.New(shared.Type())
	w, json, last := fieldByName(shared, "w"), fieldByName(shared, "json"), fieldByName(mine.Elem(), "lastName")
	if !w.IsValid() || w.Type() != reflect.TypeOf((*io.Writer)(nil)).Elem() || !json.IsValid() || json.Kind() != reflect.Bool ||
		!last.IsValid() || last.Kind() != reflect.String {
		return nil
	}
	l.tee = &teeWriter{w: settable(w).Interface().(io.Writer)}
	settable(fieldByName(mine.Elem(), "w")).Set(reflect.ValueOf(io.Writer(l.tee)))
	settable(fieldByName(mine.Elem(), "json")).SetBool(json.Bool())
	settable(last).SetString(t.Name())
	l.chatty = settable(ch)
	l.shared = reflect.New(ch.Type()).Elem()
	l.shared.Set(l.chatty)
	l.mu.Lock()
	l.chatty.Set(mine)
	l.mu.Unlock()
	return l
}

// stop gives t back the shared printer, which reports its end (the
// "--- FAIL" line goes to the output, not to the parent's buffer).
//
//go:norace
func (l *testLog) stop() {
	if l == nil || l.tee == nil {
		return
	}
	l.mu.Lock()
	l.chatty.Set(l.shared)
	l.mu.Unlock()
}

// text is what the subtest wrote so far, as a report shows it (status
// lines dropped, unindented, the last lines when there are many); known is
// false when the log could not be read.
//
//go:norace
func (l *testLog) text() (out string, known bool) {
	if l == nil {
		return "", false
	}
	var raw string
	if l.tee != nil {
		raw = l.tee.String()
	} else {
		l.mu.RLock()
		raw = string(l.output.Bytes())
		l.mu.RUnlock()
	}
	return cleanLog(raw), true
}

// maxLogLines bounds the lines of test output a report carries: the last
// ones, where the failed check most often is.
const maxLogLines = 50

// cleanLog keeps the lines a test wrote: testing's status lines ("=== RUN",
// "--- FAIL" of nested subtests) and -json's markers dropped, the common
// indentation removed.
//
//go:norace
func cleanLog(raw string) string {
	var lines []string
	indent := -1
	for _, l := range strings.Split(raw, "\n") {
		l = strings.ReplaceAll(l, "\x16", "") // test2json's marker
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- FAIL: ") || strings.HasPrefix(t, "--- PASS: ") || strings.HasPrefix(t, "--- SKIP: ") {
			continue
		}
		if n := len(l) - len(t); indent < 0 || n < indent {
			indent = n
		}
		lines = append(lines, l)
	}
	for i, l := range lines {
		lines[i] = l[min(indent, len(l)-len(strings.TrimLeft(l, " "))):]
	}
	if n := len(lines); n > maxLogLines {
		lines = append([]string{"... (" + strconv.Itoa(n-maxLogLines) + " lines before)"}, lines[n-maxLogLines:]...)
	}
	return strings.Join(lines, "\n")
}

// teeWriter writes to w and keeps the last teeKeep bytes written.
type teeWriter struct {
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

const teeKeep = 1 << 20

//go:norace
func (tw *teeWriter) Write(p []byte) (int, error) {
	tw.mu.Lock()
	tw.buf = append(tw.buf, p...)
	if len(tw.buf) > 2*teeKeep {
		tw.buf = append(tw.buf[:0], tw.buf[len(tw.buf)-teeKeep:]...)
	}
	tw.mu.Unlock()
	return tw.w.Write(p)
}

//go:norace
func (tw *teeWriter) String() string {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return string(tw.buf)
}

// fieldOf returns a pointer to the field name of struct value v when it
// has type T.
//
//go:norace
func fieldOf[T any](v reflect.Value, name string) (*T, bool) {
	f := fieldByName(v, name)
	if !f.IsValid() || f.Type() != reflect.TypeOf((*T)(nil)).Elem() {
		return nil, false
	}
	return (*T)(unsafe.Pointer(f.UnsafeAddr())), true
}

// fieldIndex caches the index of a struct type's field by name: Go's
// reflect looks a name up field by field, and captureLog looks up seven
// in testing's types at every execution.
var fieldIndex struct {
	sync.Mutex
	m map[fieldKey][]int
}

type fieldKey struct {
	t    reflect.Type
	name string
}

// fieldByName is v.FieldByName(name), its index cached by type.
//
//go:norace
func fieldByName(v reflect.Value, name string) reflect.Value {
	k := fieldKey{v.Type(), name}
	fieldIndex.Lock()
	idx, ok := fieldIndex.m[k]
	fieldIndex.Unlock()
	if !ok {
		if f, found := k.t.FieldByName(name); found {
			idx = f.Index
		}
		fieldIndex.Lock()
		if fieldIndex.m == nil {
			fieldIndex.m = map[fieldKey][]int{}
		}
		fieldIndex.m[k] = idx
		fieldIndex.Unlock()
	}
	if idx == nil {
		return reflect.Value{}
	}
	f, err := v.FieldByIndexErr(idx)
	if err != nil {
		return reflect.Value{}
	}
	return f
}

// settable makes an addressable, unexported field settable.
//
//go:norace
func settable(f reflect.Value) reflect.Value {
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}
