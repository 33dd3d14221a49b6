package abba

import (
	"sync"
	"testing"
)

func TestAbba(t *testing.T) {
	var a, b sync.Mutex
	held := make(chan bool, 2)
	start := make(chan bool)
	go func() { a.Lock(); held <- true; <-start; b.Lock() }()
	go func() { b.Lock(); held <- true; <-start; a.Lock() }()
	<-held
	<-held
	close(start)
}
