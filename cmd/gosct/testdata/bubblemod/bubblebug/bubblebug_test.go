// Package bubblebug has a synctest test that fails under go test: a
// goroutine of the bubble is still blocked when the function returns,
// which synctest reports as a deadlock.
package bubblebug

import (
	"testing"
	"testing/synctest"
)

func TestLeakInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		go func() { ch <- 1 }()
	})
}
