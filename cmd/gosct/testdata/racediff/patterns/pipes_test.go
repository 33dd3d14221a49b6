package patterns

import (
	"fmt"
	"io"
	"testing"
)

// A goroutine that comes back from io.Pipe's Read, where it was blocked
// waiting for the Write, is ordered after the pipe's writer only: gosct
// controls a pipe whose ends are used by calls of their methods and as
// interfaces (docs/races.md), through fmt too.

func TestPipeReadOrdersOnlyTheWriter(t *testing.T) {
	r, w := io.Pipe()
	x := 0
	race(func() {
		x = 1
	}, func() {
		go func() {
			w.Write([]byte{1})
		}()
		buf := make([]byte, 1)
		r.Read(buf)
		_ = x
	})
}

func TestPipeCloseOrdersOnlyTheCloser(t *testing.T) {
	r, w := io.Pipe()
	x := 0
	race(func() {
		x = 1
	}, func() {
		go func() {
			w.Close()
		}()
		buf := make([]byte, 1)
		r.Read(buf)
		_ = x
	})
}

func TestPipeFprintOrdersOnlyTheWriter(t *testing.T) {
	r, w := io.Pipe()
	x := 0
	race(func() {
		x = 1
	}, func() {
		go func() {
			fmt.Fprint(w, "x")
		}()
		buf := make([]byte, 1)
		r.Read(buf)
		_ = x
	})
}

// The fixed twins: the writer is the goroutine that wrote x, through a
// direct call, or through fmt.

func TestPipeWriteAfterWriteNoRace(t *testing.T) {
	r, w := io.Pipe()
	x := 0
	go func() {
		x = 1
		w.Write([]byte{1})
	}()
	buf := make([]byte, 1)
	r.Read(buf)
	_ = x
}

func TestPipeFprintAfterWriteNoRace(t *testing.T) {
	r, w := io.Pipe()
	x := 0
	go func() {
		x = 1
		fmt.Fprint(w, "x")
	}()
	buf := make([]byte, 1)
	r.Read(buf)
	_ = x
}
