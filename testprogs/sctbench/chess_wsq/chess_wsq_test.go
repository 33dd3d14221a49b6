package chess_wsq

import "testing"

func TestWorkStealQueue(t *testing.T) {
	Run(t)
}
