package pipelineleak

import (
	"context"
	"testing"
)

func TestFirstSquareAboveTen(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	got := FirstAbove(cancel, Square(ctx, Gen(ctx, 1, 2, 3, 4, 5, 6)), 10)
	if got != 16 {
		t.Errorf("FirstAbove = %d, want 16", got)
	}
}
