package refreshloop

import (
	"testing"
	"time"
)

func TestToken(t *testing.T) {
	c := NewClient(time.Second)
	defer c.Close()
	if c.Token() == "" {
		t.Error("no token")
	}
}
