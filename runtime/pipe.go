package runtime

import (
	"io"
	"sync"
)

// io.Pipe is Go code over channels, a mutex and a Once (io/pipe.go), but
// package io is not rewritten: a Read blocked for a Write would block
// outside the scheduler's sight and come back by real scheduling. The
// rewriter makes `r, w := io.Pipe()` a Pipe when the program cannot tell
// the ends' types apart (rewrite/pipes.go): their methods are io's
// algorithm again on the runtime's channels, mutex and Once, so which
// Write a Read takes and whether a Close comes first are decisions of the
// strategy, replayed exactly, whoever calls them (the program, or a
// library it gave an end to as an io.Reader), and the detector's edges
// are those of the channels Go's pipe synchronizes through.

// pipeModel is io's pipe (io/pipe.go, Go 1.26) on controlled primitives.
type pipeModel struct {
	wrMu sync.Mutex // serializes Writes
	wrCh chan []byte
	rdCh chan int

	once sync.Once // protects closing done
	done chan struct{}

	// errMu guards rerr and werr, as io's onceError: the done channel
	// orders their stores before their loads, so it is no scheduling
	// point, only what keeps uncontrolled goroutines apart.
	errMu      sync.Mutex
	rerr, werr error
}

// PipeReader is the read half of a Pipe: io.PipeReader's methods.
type PipeReader struct{ p *pipeModel }

// PipeWriter is the write half of a Pipe: io.PipeWriter's methods.
type PipeWriter struct{ p *pipeModel }

// Pipe is io.Pipe, with a pipe the scheduler controls. Outside an
// execution, its hooks are Go's own operations: it is io's pipe.
//
//go:norace
func Pipe() (*PipeReader, *PipeWriter) {
	p := &pipeModel{
		wrCh: Chan(make(chan []byte)),
		rdCh: Chan(make(chan int)),
		done: Chan(make(chan struct{})),
	}
	return &PipeReader{p}, &PipeWriter{p}
}

// Read is io.PipeReader's: it blocks until a Write or a Close.
//
//go:norace
func (r *PipeReader) Read(data []byte) (int, error) { return r.p.read(data) }

// Close is io.PipeReader's.
//
//go:norace
func (r *PipeReader) Close() error { return r.p.closeRead(nil) }

// CloseWithError is io.PipeReader's.
//
//go:norace
func (r *PipeReader) CloseWithError(err error) error { return r.p.closeRead(err) }

// Write is io.PipeWriter's: it blocks until Reads took all of data, or a
// Close.
//
//go:norace
func (w *PipeWriter) Write(data []byte) (int, error) { return w.p.write(data) }

// Close is io.PipeWriter's.
//
//go:norace
func (w *PipeWriter) Close() error { return w.p.closeWrite(nil) }

// CloseWithError is io.PipeWriter's.
//
//go:norace
func (w *PipeWriter) CloseWithError(err error) error { return w.p.closeWrite(err) }

//go:norace
func (p *pipeModel) read(b []byte) (int, error) {
	if Select(true, OnRecv(p.done)) == 0 {
		return 0, p.readCloseError()
	}
	bw := OnRecv(p.wrCh)
	if Select(false, bw, OnRecv(p.done)) == 0 {
		nr := copy(b, bw.Value)
		Send(p.rdCh, nr)
		return nr, nil
	}
	return 0, p.readCloseError()
}

//go:norace
func (p *pipeModel) write(b []byte) (n int, err error) {
	if Select(true, OnRecv(p.done)) == 0 {
		return 0, p.writeCloseError()
	}
	Lock(&p.wrMu)
	defer Unlock(&p.wrMu)
	for once := true; once || len(b) > 0; once = false {
		if Select(false, OnSend(p.wrCh, b), OnRecv(p.done)) != 0 {
			return n, p.writeCloseError()
		}
		nw := Recv(p.rdCh)
		b = b[nw:]
		n += nw
	}
	return n, nil
}

//go:norace
func (p *pipeModel) closeRead(err error) error {
	if err == nil {
		err = io.ErrClosedPipe
	}
	p.storeErr(&p.rerr, err)
	Do(&p.once, func() { Close(p.done) })
	return nil
}

//go:norace
func (p *pipeModel) closeWrite(err error) error {
	if err == nil {
		err = io.EOF
	}
	p.storeErr(&p.werr, err)
	Do(&p.once, func() { Close(p.done) })
	return nil
}

// storeErr keeps the first error stored in *to, as onceError.Store.
//
//go:norace
func (p *pipeModel) storeErr(to *error, err error) {
	p.errMu.Lock()
	if *to == nil {
		*to = err
	}
	p.errMu.Unlock()
}

//go:norace
func (p *pipeModel) errs() (rerr, werr error) {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.rerr, p.werr
}

// readCloseError is the error of a Read on a closed pipe.
//
//go:norace
func (p *pipeModel) readCloseError() error {
	rerr, werr := p.errs()
	if rerr == nil && werr != nil {
		return werr
	}
	return io.ErrClosedPipe
}

// writeCloseError is the error of a Write on a closed pipe.
//
//go:norace
func (p *pipeModel) writeCloseError() error {
	rerr, werr := p.errs()
	if werr == nil && rerr != nil {
		return rerr
	}
	return io.ErrClosedPipe
}
