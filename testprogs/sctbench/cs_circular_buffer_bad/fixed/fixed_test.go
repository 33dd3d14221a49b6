package fixed

import "testing"

func TestCircularBuffer(t *testing.T) {
	Run(t)
}
