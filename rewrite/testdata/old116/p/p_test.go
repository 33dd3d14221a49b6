package p

import "testing"

func TestInc(t *testing.T) {
	if Inc(make(chan int, 1)) != 1 {
		t.Fatal("sum")
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatal("go1.16: panic(nil) must recover nil")
		}
	}()
	panic(nil)
}
