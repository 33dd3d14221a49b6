package where

import (
	"sync"
	"testing"
)

func TestDeadlock(t *testing.T) {
	var a, b sync.Mutex
	done := make(chan bool)
	go func() {
		a.Lock()
		b.Lock() // want: deadlock
		b.Unlock()
		a.Unlock()
		done <- true
	}()
	b.Lock()
	a.Lock() // want: deadlock
	a.Unlock()
	b.Unlock()
	<-done
}

func TestLeak(t *testing.T) {
	ch := make(chan int)
	go func() {
		ch <- 1 // want: leak
	}()
}

func TestPanic(t *testing.T) {
	ch := make(chan int)
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			close(ch) // want: panic
			done <- true
		}()
	}
	<-done
	<-done
}

func TestFailure(t *testing.T) {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
	t.Log("both done")
	if n != 2 {
		t.Errorf("lost update: n = %d", n) // want: failure
	}
	t.Log("checked")
}

func TestRace(t *testing.T) {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1 // want: race
		done <- true
	}()
	x = 2 // want: race
	<-done
	if x == 0 {
		t.Fatal("x unset")
	}
}
