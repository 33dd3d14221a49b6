package runtime

import (
	"io"
	"runtime"
	"sync"
	"weak"
)

// Pipes whose every use is a call of the hooks below: the rewriter routes
// an io.Pipe() to Pipe only when both ends are locals used as nothing but
// the receivers of direct calls of their methods (rewrite/pipes.go). Such
// a pipe is not io's: it is io/pipe.go's algorithm again, on the
// runtime's controlled channels, mutex and Once (pipeModel), so a Read
// blocked for a Write is a goroutine the scheduler sees blocked, which
// Write wakes it and when a Close lands between two Writes are decisions
// of the strategy, replayed exactly, and the detector's edges are those
// of the channels Go's pipe synchronizes through. The io.PipeReader and
// io.PipeWriter that Pipe returns are only the keys of their model.

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

// pipeModels maps the ends Pipe returned to their model. The keys are weak
// so that a pipe nobody holds is collected, its entries deleted by the
// cleanups Pipe registers.
var pipeModels sync.Map // weak.Pointer[io.PipeReader] or weak.Pointer[io.PipeWriter] → *pipeModel

// Pipe is io.Pipe, with a pipe the scheduler controls.
//
//go:norace
func Pipe() (*io.PipeReader, *io.PipeWriter) {
	r, w := io.Pipe()
	p := &pipeModel{
		wrCh: Chan(make(chan []byte)),
		rdCh: Chan(make(chan int)),
		done: Chan(make(chan struct{})),
	}
	rk, wk := weak.Make(r), weak.Make(w)
	pipeModels.Store(rk, p)
	pipeModels.Store(wk, p)
	runtime.AddCleanup(r, forgetPipeEnd, any(rk))
	runtime.AddCleanup(w, forgetPipeEnd, any(wk))
	return r, w
}

//go:norace
func forgetPipeEnd(k any) { pipeModels.Delete(k) }

// modelOf returns the model of a pipe end, nil for a pipe Pipe did not
// make (a hook's caller compiled against another Pipe).
//
//go:norace
func modelOf[T any](end *T) *pipeModel {
	if p, ok := pipeModels.Load(weak.Make(end)); ok {
		return p.(*pipeModel)
	}
	return nil
}

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

// PipeRead is r.Read(b) on a pipe Pipe made.
//
//go:norace
func PipeRead(r *io.PipeReader, b []byte) (int, error) {
	if p := modelOf(r); p != nil {
		return p.read(b)
	}
	return r.Read(b)
}

// PipeWrite is w.Write(b) on a pipe Pipe made.
//
//go:norace
func PipeWrite(w *io.PipeWriter, b []byte) (int, error) {
	if p := modelOf(w); p != nil {
		return p.write(b)
	}
	return w.Write(b)
}

// PipeReaderClose is r.Close() on a pipe Pipe made.
//
//go:norace
func PipeReaderClose(r *io.PipeReader) error { return PipeReaderCloseWithError(r, nil) }

// PipeReaderCloseWithError is r.CloseWithError(err) on a pipe Pipe made.
//
//go:norace
func PipeReaderCloseWithError(r *io.PipeReader, err error) error {
	if p := modelOf(r); p != nil {
		return p.closeRead(err)
	}
	return r.CloseWithError(err)
}

// PipeWriterClose is w.Close() on a pipe Pipe made.
//
//go:norace
func PipeWriterClose(w *io.PipeWriter) error { return PipeWriterCloseWithError(w, nil) }

// PipeWriterCloseWithError is w.CloseWithError(err) on a pipe Pipe made.
//
//go:norace
func PipeWriterCloseWithError(w *io.PipeWriter, err error) error {
	if p := modelOf(w); p != nil {
		return p.closeWrite(err)
	}
	return w.CloseWithError(err)
}
