// Package chans closes a channel twice and sends on a closed one.
package chans

type bus struct {
	done chan struct{}
	msgs chan int
}

func (b *bus) stop() {
	close(b.done) // line 10
}

func (b *bus) publish(v int) {
	b.msgs <- v // line 14
}

func (b *bus) shutdown() {
	close(b.msgs) // line 18
}

func local() {
	c := make(chan int, 1)
	c <- 1 // line 23: no close of this channel anywhere
}
