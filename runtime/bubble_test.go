package runtime

import (
	"testing"
	"testing/synctest"
)

func TestInBubble(t *testing.T) {
	if inBubble() {
		t.Fatal("in a bubble outside synctest.Test")
	}
	synctest.Test(t, func(t *testing.T) {
		if !inBubble() {
			t.Error("not in a bubble inside synctest.Test")
		}
		done := make(chan bool)
		go func() { done <- inBubble() }()
		if !<-done {
			t.Error("a goroutine started in the bubble is not in it")
		}
	})
}
