package chess_swsq

import "testing"

func TestWorkStealQueueWithState(t *testing.T) {
	Run(t)
}
