package buggy

import (
	"sync"
	"testing"
)

func TestTransferBothWays(t *testing.T) {
	a, b := &Account{balance: 10}, &Account{balance: 10}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Transfer(a, b, 1) }()
	go func() { defer wg.Done(); Transfer(b, a, 2) }()
	wg.Wait()
	if a.balance+b.balance != 20 {
		t.Fatalf("money was created or lost: %d", a.balance+b.balance)
	}
}
