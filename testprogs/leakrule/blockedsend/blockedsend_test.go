package blockedsend

import (
	"testing"
)

func TestBlockedsend(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 1 }()
}
