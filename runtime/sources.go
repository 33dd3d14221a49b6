package runtime

import (
	crand "crypto/rand"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The other sources of nondeterminism the rewriter sends through the
// runtime: the goroutine count and crypto/rand, which an execution
// controls, and the environment and files, which it only observes
// (docs/runtime.md, "What is controlled").

// NumGoroutine replaces runtime.NumGoroutine. Inside an execution it is
// the count at the execution's start (recorded in the trace) plus the
// execution's goroutines that have not exited: the same in every run of a
// schedule, whatever else the process runs (goroutines left by earlier
// executions, the runtime's own). It is a scheduling point, as a read of
// what other goroutines do: a loop waiting for the count to drop lets
// them run.
//
//go:norace
func NumGoroutine() int {
	e, me := enter()
	if e == nil || e.set.free&ctlGoroutines != 0 || !e.yield(me, opNumGoroutine) {
		n := runtime.NumGoroutine()
		if e != nil && e.set.detailed {
			e.mu.Lock()
			e.in.observe(len(e.trail), "goroutines", "runtime.NumGoroutine", hashUint(uint64(n)), false)
			e.mu.Unlock()
		}
		return n
	}
	e.mu.Lock()
	n := e.in.goroutines
	for _, g := range e.gs {
		if g != e.main && !g.adopted && g.state != gDone {
			n++
		}
	}
	e.in.observe(len(e.trail), "goroutines", "runtime.NumGoroutine", hashUint(uint64(n)), true)
	e.mu.Unlock()
	return n
}

// cryptoExec is enter for the crypto/rand hooks.
//
//go:norace
func cryptoExec() *execution {
	e, _ := enter()
	if e == nil || e.set.free&ctlCrypto != 0 {
		return nil
	}
	return e
}

// CryptoRead replaces crypto/rand.Read. Inside an execution the bytes
// come from the execution's random source: a test's keys, nonces and
// tokens are the same in every run of a schedule. (They are not secret:
// nothing under test needs them to be.)
//
//go:norace
func CryptoRead(b []byte) (int, error) {
	e := cryptoExec()
	if e == nil {
		n, err := crand.Read(b)
		observeFree(b[:n])
		return n, err
	}
	e.mu.Lock()
	e.in.fill(e, b)
	e.in.observe(len(e.trail), "crypto/rand", "crypto/rand.Read", hashBytes(b), true)
	e.mu.Unlock()
	return len(b), nil
}

// CryptoText replaces crypto/rand.Text.
//
//go:norace
func CryptoText() string {
	e := cryptoExec()
	if e == nil {
		s := crand.Text()
		observeFree([]byte(s))
		return s
	}
	const base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b := make([]byte, 26)
	e.mu.Lock()
	e.in.fill(e, b)
	for i := range b {
		b[i] = base32[b[i]%32]
	}
	e.in.observe(len(e.trail), "crypto/rand", "crypto/rand.Text", hashBytes(b), true)
	e.mu.Unlock()
	return string(b)
}

// CryptoReader replaces reads of the variable crypto/rand.Reader: inside
// an execution, a reader of the execution's random source.
//
//go:norace
func CryptoReader() io.Reader {
	e, _ := enter()
	if e == nil {
		return crand.Reader
	}
	pos := "" // where the reader was taken: its reads happen in library code
	if e.set.detailed {
		pos = callerPos()
	}
	if e.set.free&ctlCrypto == 0 {
		return execReader{e, pos}
	}
	if e.set.detailed {
		return observedReader{e, pos} // the control is off
	}
	return crand.Reader
}

// observedReader is crypto/rand.Reader with its reads noted.
type observedReader struct {
	e   *execution
	pos string
}

//go:norace
func (o observedReader) Read(b []byte) (int, error) {
	n, err := crand.Reader.Read(b)
	if e, _ := enter(); e == o.e {
		e.mu.Lock()
		e.in.observeAt(len(e.trail), "crypto/rand", "crypto/rand.Reader", o.pos, hashBytes(b[:n]), false)
		e.mu.Unlock()
	}
	return n, err
}

// execReader reads the random source of an execution.
type execReader struct {
	e   *execution
	pos string
}

//go:norace
func (r execReader) Read(b []byte) (int, error) {
	e, _ := enter()
	if e != r.e {
		// The execution is over (the reader was kept): real randomness.
		return crand.Read(b)
	}
	e.mu.Lock()
	e.in.fill(e, b)
	e.in.observeAt(len(e.trail), "crypto/rand", "crypto/rand.Reader", r.pos, hashBytes(b), true)
	e.mu.Unlock()
	return len(b), nil
}

// fill fills b from the execution's random source, telling d of the
// draw. Lock held.
//
//go:norace
func (p *programInputs) fill(d drawNoter, b []byte) {
	d.noteDrawn(ctlCrypto)
	p.initSource()
	for i := 0; i < len(b); i += 8 {
		v := p.src.Uint64()
		for j := i; j < i+8 && j < len(b); j++ {
			b[j] = byte(v)
			v >>= 8
		}
	}
}

// observeFree notes, in detailed mode, a crypto/rand read with the
// control off.
//
//go:norace
func observeFree(b []byte) {
	noteDrawnHere(ctlCrypto)
	if e, _ := enter(); e != nil && e.set.detailed {
		e.mu.Lock()
		e.in.observe(len(e.trail), "crypto/rand", "crypto/rand", hashBytes(b), false)
		e.mu.Unlock()
	}
}

// Getenv replaces os.Getenv. The environment is the process's: in a
// detailed execution the read is noted (a hash of the value, never the
// value), so that a replay on a machine where the variable differs names
// it.
//
//go:norace
func Getenv(key string) string {
	v := os.Getenv(key)
	observeEnv("os.Getenv", key, v)
	return v
}

// LookupEnv replaces os.LookupEnv; see Getenv.
//
//go:norace
func LookupEnv(key string) (string, bool) {
	v, ok := os.LookupEnv(key)
	if ok {
		observeEnv("os.LookupEnv", key, v)
	} else {
		observeEnv("os.LookupEnv", key, "\x00unset")
	}
	return v, ok
}

//go:norace
func observeEnv(fn, key, v string) {
	if e, _ := enter(); e != nil && e.set.detailed {
		e.mu.Lock()
		e.in.observe(len(e.trail), "env", fn+"("+key+")", hashString(v), false)
		e.mu.Unlock()
	}
}

// ReadFile replaces os.ReadFile. Files are not controlled: in a detailed
// execution the read is noted with a hash of the content, so that a
// replay that reads another content names the file.
//
//go:norace
func ReadFile(name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if e, _ := enter(); e != nil && e.set.detailed {
		h := hashBytes(b)
		if err != nil {
			h = hashString("\x00error: " + errKind(err))
		}
		e.mu.Lock()
		e.in.observe(len(e.trail), "file", "os.ReadFile("+filepath.Base(name)+")", h, false)
		e.mu.Unlock()
	}
	return b, err
}

// ReadDir replaces os.ReadDir; see ReadFile. The noted value is a hash of
// the entries' names.
//
//go:norace
func ReadDir(name string) ([]os.DirEntry, error) {
	ents, err := os.ReadDir(name)
	if e, _ := enter(); e != nil && e.set.detailed {
		var names []string
		for _, d := range ents {
			names = append(names, d.Name())
		}
		h := hashString(strings.Join(names, "\x00"))
		if err != nil {
			h = hashString("\x00error: " + errKind(err))
		}
		e.mu.Lock()
		e.in.observe(len(e.trail), "file", "os.ReadDir("+filepath.Base(name)+")", h, false)
		e.mu.Unlock()
	}
	return ents, err
}

// errKind is what of a file error is the same in every run (not the path,
// which may be a temporary directory).
//
//go:norace
func errKind(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// LockOSThread replaces runtime.LockOSThread. Go ends the thread of a
// goroutine that exits locked to it; the goroutine's worker is not reused
// either (pool.go), so that no later goroutine runs on a thread the
// program changed.
//
//go:norace
func LockOSThread() {
	runtime.LockOSThread()
	if e, me := enter(); e != nil && me != nil {
		me.lockedThread = true
	}
}
