package pipes

import (
	"errors"
	"fmt"
	"io"
	"net"
)

// a pipe whose ends are used only by direct calls of their methods: its
// calls are the runtime's Pipe hooks.
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

// an end that escapes (into fmt, through an interface) leaves the pipe
// as it is.
func escapes() int {
	r, w := io.Pipe()
	go func() {
		fmt.Fprint(w, "x")
		w.Close()
	}()
	buf := make([]byte, 4)
	n, _ := r.Read(buf)
	return n
}

// a go statement calls the method in the new goroutine: still the hook.
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
