package reorder_idle

import "testing"

func TestReorderIdle(t *testing.T) {
	Run(t)
}
