package chess_iwsqws

import "testing"

func TestWorkStealQueueWithState(t *testing.T) {
	Run(t)
}
