package panicsunused

import "testing"

func TestBoom(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- Boom(map[string]int{}) }()
	<-ch
}
