package runtime

import (
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// net.Pipe's conns are Go code over channels, a mutex, a Once and
// AfterFunc timers (net/pipe.go), but package net is not rewritten: a
// Read blocked for the other end's Write would be blocked outside the
// scheduler's sight, woken by real scheduling, and a deadline would
// expire in real time. NetPipe is that code again on the runtime's
// hooks: every handoff between the two ends is a decision of the
// strategy, replayed exactly; a deadline is a virtual timer; and a
// goroutine left blocked on a conn is a leak the runtime sees. Its conns
// are net.Conns of their own type, which is all net.Pipe promises.

// NetPipe is net.Pipe, with conns the scheduler controls.
//
//go:norace
func NetPipe() (net.Conn, net.Conn) {
	cb1 := Chan(make(chan []byte))
	cb2 := Chan(make(chan []byte))
	cn1 := Chan(make(chan int))
	cn2 := Chan(make(chan int))
	done1 := Chan(make(chan struct{}))
	done2 := Chan(make(chan struct{}))

	p1 := &netPipe{
		rdRx: cb1, rdTx: cn1,
		wrTx: cb2, wrRx: cn2,
		localDone: done1, remoteDone: done2,
		readDeadline:  makePipeDeadline(),
		writeDeadline: makePipeDeadline(),
	}
	p2 := &netPipe{
		rdRx: cb2, rdTx: cn2,
		wrTx: cb1, wrRx: cn1,
		localDone: done2, remoteDone: done1,
		readDeadline:  makePipeDeadline(),
		writeDeadline: makePipeDeadline(),
	}
	return p1, p2
}

// pipeDeadline is net's: a channel closed when the deadline passes.
type pipeDeadline struct {
	mu     sync.Mutex // guards timer and cancel
	timer  *time.Timer
	cancel chan struct{} // never nil
}

//go:norace
func makePipeDeadline() pipeDeadline {
	return pipeDeadline{cancel: Chan(make(chan struct{}))}
}

// set makes the deadline t: the zero time for none, a time past for one
// already exceeded.
//
//go:norace
func (d *pipeDeadline) set(t time.Time) {
	Lock(&d.mu)
	defer Unlock(&d.mu)

	if d.timer != nil && !TimerStop(d.timer) {
		Recv(d.cancel) // the timer's f is closing cancel: wait for it
	}
	d.timer = nil

	closed := isClosedChan(d.cancel)
	if t.IsZero() {
		if closed {
			d.cancel = Chan(make(chan struct{}))
		}
		return
	}
	if dur := t.Sub(clockNow()); dur > 0 {
		if closed {
			d.cancel = Chan(make(chan struct{}))
		}
		d.timer = AfterFunc(dur, func() { Close(d.cancel) })
		return
	}
	if !closed {
		Close(d.cancel)
	}
}

// wait returns a channel closed when the deadline is exceeded.
//
//go:norace
func (d *pipeDeadline) wait() chan struct{} {
	Lock(&d.mu)
	defer Unlock(&d.mu)
	return d.cancel
}

//go:norace
func isClosedChan(c <-chan struct{}) bool { return Select(true, OnRecv(c)) == 0 }

type netPipeAddr struct{}

//go:norace
func (netPipeAddr) Network() string { return "pipe" }

//go:norace
func (netPipeAddr) String() string { return "pipe" }

// netPipe is one end of a NetPipe.
type netPipe struct {
	wrMu sync.Mutex // serializes Writes

	// A local Read's receive on rdRx is always followed by a send on
	// rdTx; a local Write's send on wrTx by a receive on wrRx.
	rdRx <-chan []byte
	rdTx chan<- int
	wrTx chan<- []byte
	wrRx <-chan int

	once       sync.Once // protects closing localDone
	localDone  chan struct{}
	remoteDone <-chan struct{}

	readDeadline  pipeDeadline
	writeDeadline pipeDeadline
}

// LocalAddr is net.Conn's.
//
//go:norace
func (*netPipe) LocalAddr() net.Addr { return netPipeAddr{} }

// RemoteAddr is net.Conn's.
//
//go:norace
func (*netPipe) RemoteAddr() net.Addr { return netPipeAddr{} }

// Read is net.Conn's.
//
//go:norace
func (p *netPipe) Read(b []byte) (int, error) {
	n, err := p.read(b)
	if err != nil && err != io.EOF && err != io.ErrClosedPipe {
		err = &net.OpError{Op: "read", Net: "pipe", Err: err}
	}
	return n, err
}

//go:norace
func (p *netPipe) read(b []byte) (n int, err error) {
	switch {
	case isClosedChan(p.localDone):
		return 0, io.ErrClosedPipe
	case isClosedChan(p.remoteDone):
		return 0, io.EOF
	case isClosedChan(p.readDeadline.wait()):
		return 0, os.ErrDeadlineExceeded
	}
	bw := OnRecv(p.rdRx)
	switch Select(false, bw, OnRecv(p.localDone), OnRecv(p.remoteDone), OnRecv(p.readDeadline.wait())) {
	case 0:
		nr := copy(b, bw.Value)
		Send(p.rdTx, nr)
		return nr, nil
	case 1:
		return 0, io.ErrClosedPipe
	case 2:
		return 0, io.EOF
	default:
		return 0, os.ErrDeadlineExceeded
	}
}

// Write is net.Conn's.
//
//go:norace
func (p *netPipe) Write(b []byte) (int, error) {
	n, err := p.write(b)
	if err != nil && err != io.ErrClosedPipe {
		err = &net.OpError{Op: "write", Net: "pipe", Err: err}
	}
	return n, err
}

//go:norace
func (p *netPipe) write(b []byte) (n int, err error) {
	switch {
	case isClosedChan(p.localDone):
		return 0, io.ErrClosedPipe
	case isClosedChan(p.remoteDone):
		return 0, io.ErrClosedPipe
	case isClosedChan(p.writeDeadline.wait()):
		return 0, os.ErrDeadlineExceeded
	}

	Lock(&p.wrMu) // the whole of b is written together
	defer Unlock(&p.wrMu)
	for once := true; once || len(b) > 0; once = false {
		switch Select(false, OnSend(p.wrTx, b), OnRecv(p.localDone), OnRecv(p.remoteDone), OnRecv(p.writeDeadline.wait())) {
		case 0:
			nw := Recv(p.wrRx)
			b = b[nw:]
			n += nw
		case 1, 2:
			return n, io.ErrClosedPipe
		default:
			return n, os.ErrDeadlineExceeded
		}
	}
	return n, nil
}

// SetDeadline is net.Conn's.
//
//go:norace
func (p *netPipe) SetDeadline(t time.Time) error {
	if isClosedChan(p.localDone) || isClosedChan(p.remoteDone) {
		return io.ErrClosedPipe
	}
	p.readDeadline.set(t)
	p.writeDeadline.set(t)
	return nil
}

// SetReadDeadline is net.Conn's.
//
//go:norace
func (p *netPipe) SetReadDeadline(t time.Time) error {
	if isClosedChan(p.localDone) || isClosedChan(p.remoteDone) {
		return io.ErrClosedPipe
	}
	p.readDeadline.set(t)
	return nil
}

// SetWriteDeadline is net.Conn's.
//
//go:norace
func (p *netPipe) SetWriteDeadline(t time.Time) error {
	if isClosedChan(p.localDone) || isClosedChan(p.remoteDone) {
		return io.ErrClosedPipe
	}
	p.writeDeadline.set(t)
	return nil
}

// Close is net.Conn's.
//
//go:norace
func (p *netPipe) Close() error {
	Do(&p.once, func() { Close(p.localDone) })
	return nil
}
