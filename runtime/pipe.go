package runtime

import (
	"io"
	"unsafe"
)

// Pipes whose every use is a call of the hooks below: the rewriter routes
// an io.Pipe() to Pipe only when both ends are locals used as nothing but
// the receivers of direct calls of their methods (rewrite/pipes.go). Each
// call releases the pipe before it and acquires it after, as Go's pipe
// synchronizes its two sides through channels: a Read that returns data
// happens after the Write that sent it began, a Write that returns after
// the Reads that took its data, and a call that sees the pipe closed
// after the Close. A goroutine that blocks in such a call comes back
// without joining every goroutine's clock (sched.go's foreign): the pipe's
// clock is what woke it. Releases merge: a Read is ordered after every
// call on the pipe begun before it returned, never less than Go orders.

// Pipe is io.Pipe, whose ends the execution knows.
//
//go:norace
func Pipe() (*io.PipeReader, *io.PipeWriter) {
	r, w := io.Pipe()
	if e := active.Load(); e != nil {
		k := unsafe.Pointer(r)
		e.mu.Lock()
		if !e.over {
			e.pipes.put(unsafe.Pointer(r), k)
			e.pipes.put(unsafe.Pointer(w), k)
		}
		e.mu.Unlock()
	}
	return r, w
}

// pipeEnter starts a call on the pipe end p: a release on the pipe, by a
// goroutine that is in the pipe's call until pipeLeave. It returns the
// pipe's key, nil for a pipe the execution did not make.
//
//go:norace
func pipeEnter(p unsafe.Pointer) unsafe.Pointer {
	e, me := enter()
	if e == nil || me == nil {
		return nil
	}
	e.mu.Lock()
	k := e.pipes.get(p)
	if k != nil && !e.over {
		e.hbRelease(me, k)
		me.inPipe = k
	}
	e.mu.Unlock()
	return k
}

// pipeLeave ends the call pipeEnter started: an acquire of the pipe.
//
//go:norace
func pipeLeave(k unsafe.Pointer) {
	if k == nil {
		return
	}
	e, me := enter()
	if e == nil || me == nil {
		return
	}
	e.mu.Lock()
	me.inPipe = nil
	if !e.over {
		e.hbAcquire(me, k)
	}
	e.mu.Unlock()
}

// PipeRead is r.Read(b) on a known pipe.
//
//go:norace
func PipeRead(r *io.PipeReader, b []byte) (int, error) {
	k := pipeEnter(unsafe.Pointer(r))
	n, err := r.Read(b)
	pipeLeave(k)
	return n, err
}

// PipeWrite is w.Write(b) on a known pipe.
//
//go:norace
func PipeWrite(w *io.PipeWriter, b []byte) (int, error) {
	k := pipeEnter(unsafe.Pointer(w))
	n, err := w.Write(b)
	pipeLeave(k)
	return n, err
}

// PipeReaderClose is r.Close() on a known pipe.
//
//go:norace
func PipeReaderClose(r *io.PipeReader) error {
	k := pipeEnter(unsafe.Pointer(r))
	err := r.Close()
	pipeLeave(k)
	return err
}

// PipeReaderCloseWithError is r.CloseWithError(err) on a known pipe.
//
//go:norace
func PipeReaderCloseWithError(r *io.PipeReader, err error) error {
	k := pipeEnter(unsafe.Pointer(r))
	err = r.CloseWithError(err)
	pipeLeave(k)
	return err
}

// PipeWriterClose is w.Close() on a known pipe.
//
//go:norace
func PipeWriterClose(w *io.PipeWriter) error {
	k := pipeEnter(unsafe.Pointer(w))
	err := w.Close()
	pipeLeave(k)
	return err
}

// PipeWriterCloseWithError is w.CloseWithError(err) on a known pipe.
//
//go:norace
func PipeWriterCloseWithError(w *io.PipeWriter, err error) error {
	k := pipeEnter(unsafe.Pointer(w))
	err = w.CloseWithError(err)
	pipeLeave(k)
	return err
}
