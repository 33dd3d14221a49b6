//go:build gosctshape

package p

import "testing"

// TestTagged exists only with the tag.
func TestTagged(t *testing.T) {
	done := make(chan int)
	go func() { done <- weight }()
	if w := <-done; w != 1 {
		t.Fatal(w)
	}
}
