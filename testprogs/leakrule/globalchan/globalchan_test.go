package globalchan

import (
	"testing"
)

var global = make(chan int)

func TestGlobalchan(t *testing.T) {
	go func() { <-global }()
}
