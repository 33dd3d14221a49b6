package cs_queue_bad

import "testing"

func TestQueue(t *testing.T) {
	Run(t)
}
