package poolstop

import "testing"

func TestFirstResultWins(t *testing.T) {
	p := NewPool(2, func(x int) int { return x * x })
	p.Submit(2)
	p.Submit(3)
	got := p.Result()
	p.Stop()
	if got != 4 && got != 9 {
		t.Errorf("Result = %d, want 4 or 9", got)
	}
}
