package queueclose

import "testing"

func TestPutDuringClose(t *testing.T) {
	q := New(4)
	errc := make(chan error, 1)
	go func() { errc <- q.Put(1) }()
	q.Close()
	err := <-errc
	n := 0
	for range q.Items() {
		n++
	}
	if err == nil && n != 1 {
		t.Errorf("Put succeeded but the queue held %d items", n)
	}
	if err != nil && n != 0 {
		t.Errorf("Put failed (%v) but the queue held %d items", err, n)
	}
}
