// Package randjitter calls a backend with a random delay (jitter drawn
// with rand.Int63n) to spread load, and gives up after 20ms. The backend
// call reports on an unbuffered channel: when the jitter exceeds the
// timeout the caller has gone, and the call's goroutine blocks for ever.
package randjitter

import (
	"errors"
	"math/rand"
	"time"
)

// ErrTimeout is returned when the backend is too slow.
var ErrTimeout = errors.New("randjitter: timeout")

// Call queries the backend for key, with jitter and a timeout.
func Call(key int) (int, error) {
	res := make(chan int) // BUG: unbuffered; nobody receives after a timeout
	go func() {
		jitter := time.Duration(rand.Int63n(int64(50 * time.Millisecond)))
		time.Sleep(jitter)
		res <- key * 2
	}()
	select {
	case v := <-res:
		return v, nil
	case <-time.After(20 * time.Millisecond):
		return 0, ErrTimeout
	}
}
