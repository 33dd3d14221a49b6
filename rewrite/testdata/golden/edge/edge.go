package edge

import (
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	. "time"
)

var gosct = "a user variable named like the runtime's default alias"

var (
	a, b    int
	m       = map[string]int{}
	r       io.Reader
	counter int32
	errCh   = make(chan error, 1)
)

type myErr struct{}

func (myErr) Error() string { return "x" }

func Edge(l sync.Locker) {
	f := l.Lock
	f()
	a, b = b, a
	m["k"] += 1
	r = strings.NewReader(gosct)
	defer atomic.AddInt32(&counter, -1)
	for i := 0; i < 3; a++ {
		i++
	}
	select {
	case errCh <- myErr{}:
	default:
	}
	go consume(a, errors.New("e"))
	Sleep(1)
}

func consume(int, error) {}
