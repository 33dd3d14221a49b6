package abba

import "testing"

func TestOppositeTransfers(t *testing.T) {
	a, b := NewAccount(1, 100), NewAccount(2, 100)
	errc := make(chan error, 1)
	go func() { errc <- Transfer(b, a, 30) }()
	if err := Transfer(a, b, 50); err != nil {
		t.Errorf("Transfer(a, b): %v", err)
	}
	if err := <-errc; err != nil {
		t.Errorf("Transfer(b, a): %v", err)
	}
	if got := a.Balance() + b.Balance(); got != 200 {
		t.Errorf("total = %d, want 200", got)
	}
}
