package cs_circular_buffer_bad

import "testing"

func TestCircularBuffer(t *testing.T) {
	Run(t)
}
