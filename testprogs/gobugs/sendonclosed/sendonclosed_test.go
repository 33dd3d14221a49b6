package sendonclosed

import "testing"

func TestPublishWhileUnsubscribing(t *testing.T) {
	b := NewBus()
	id, ch := b.Subscribe()
	published := make(chan struct{})
	go func() {
		b.Publish("hello")
		close(published)
	}()
	b.Unsubscribe(id)
	<-published
	for msg := range ch {
		if msg != "hello" {
			t.Errorf("got %q, want hello", msg)
		}
	}
}
