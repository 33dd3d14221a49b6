package monitorleak

import (
	"context"
	"testing"
)

func TestDialDuringShutdown(t *testing.T) {
	s := &Server{}
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	c, err := Dial(context.Background(), s)
	<-closed
	if err != nil {
		if err != ErrClosed {
			t.Fatalf("Dial: %v", err)
		}
		return
	}
	c.Close()
}
