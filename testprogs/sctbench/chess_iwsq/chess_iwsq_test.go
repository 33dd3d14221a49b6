package chess_iwsq

import "testing"

func TestWorkStealQueue(t *testing.T) {
	Run(t)
}
