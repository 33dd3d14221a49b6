package pipes

import (
	"errors"
	"fmt"
	"io"
	"net"
)

// a pipe whose ends are used only by calls of their methods: the
// runtime's.
func known() int {
	r, w := io.Pipe()
	go func() {
		w.Write([]byte("x"))
		w.CloseWithError(errors.New("done"))
	}()
	defer r.Close()
	buf := make([]byte, 4)
	n, _ := r.Read(buf)
	return n
}

// an end given to fmt as an io.Writer: still the runtime's.
func toInterface() int {
	r, w := io.Pipe()
	go func() {
		fmt.Fprint(w, "x")
		w.Close()
	}()
	buf := make([]byte, 4)
	n, _ := r.Read(buf)
	return n
}

// a go statement calls the method in the new goroutine: the runtime's.
func goWrite() int {
	r, w := io.Pipe()
	go w.Write([]byte("x"))
	buf := make([]byte, 4)
	n, _ := r.Read(buf)
	return n
}

// net.Pipe's conns are the runtime's, however they are used.
func netPipe() int {
	c1, c2 := net.Pipe()
	go fmt.Fprint(c1, "x")
	buf := make([]byte, 4)
	n, _ := c2.Read(buf)
	pipe := net.Pipe
	_, _ = pipe()
	return n
}

type sink struct{ w io.WriteCloser }

// ends that fit the runtime's types wherever they go: a field, a
// composite literal, a return, a send, an assignment to an interface.
func fitting() (io.Reader, chan io.Closer) {
	r, w := io.Pipe()
	s := sink{w: w}
	var c io.Closer
	c = r
	ch := make(chan io.Closer, 2)
	ch <- c
	ch <- (w)
	_ = []io.Writer{w}
	_ = s
	return r, ch
}

func takesReader(r *io.PipeReader) {}

// ends that need io's types: the pipe stays io's.
func needsIO() *io.PipeWriter {
	r, w := io.Pipe()
	takesReader(r)
	return w
}

func compared() bool {
	r, w := io.Pipe()
	w.Close()
	return r != nil
}

func aliased() {
	r, w := io.Pipe()
	r2 := r
	r2.Close()
	w.Close()
}
