package nilchan

import (
	"testing"
)

func TestNilchan(t *testing.T) {
	var ch chan int
	go func() { <-ch }()
}
