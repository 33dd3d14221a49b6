package forward

import "testing"

// TestDropped expects the value sent to the second Drop dropped, as no
// receiver waits when it is sent; but its goroutine may reach its select
// only once the test waits in its receive, and forward it then.
func TestDropped(t *testing.T) {
	d := New()
	go func() {
		for i := 0; i < 10; i++ {
			d.In <- i
		}
		close(d.In)
	}()
	for range d.Out {
	}
	d = New()
	d.In <- 0
	close(d.In)
	if v, ok := <-d.Out; ok {
		t.Fatal("expected closed, got", v)
	}
}
