package chans

import "testing"

func TestChans(t *testing.T) {
	b := &bus{done: make(chan struct{}), msgs: make(chan int, 1)}
	go b.stop()
	b.stop()
	go b.publish(1)
	b.shutdown()
	local()
}
