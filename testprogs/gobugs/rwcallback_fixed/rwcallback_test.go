package rwcallback

import "testing"

func TestRangeWithCallbackIntoTable(t *testing.T) {
	tab := NewTable(map[int]string{1: "a"})
	done := make(chan struct{})
	go func() {
		tab.Put(2, "b")
		close(done)
	}()
	calls := 0
	tab.Range(func(id int, name string) {
		if tab.Len() < 1 {
			t.Errorf("row %d seen but Len < 1", id)
		}
		calls++
	})
	<-done
	if calls < 1 || calls > 2 {
		t.Errorf("Range called fn %d times, want 1 or 2", calls)
	}
}
