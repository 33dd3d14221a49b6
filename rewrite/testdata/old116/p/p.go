package p

import "sync"

var mu sync.Mutex
var n int

func Inc(ch chan int) int {
	mu.Lock()
	n++
	mu.Unlock()
	ch <- n
	close(ch)
	s := 0
	for v := range ch {
		s += v
	}
	return s
}
