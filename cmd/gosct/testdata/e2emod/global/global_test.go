package global

import "testing"

func TestRegisterAndCall(t *testing.T) {
	Register("answer", func() int { return 42 })
	ch := make(chan int)
	go func() { ch <- Call("answer") }()
	if v := <-ch; v != 42 {
		t.Fatalf("got %d", v)
	}
}
