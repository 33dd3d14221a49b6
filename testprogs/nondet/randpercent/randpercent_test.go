package randpercent

import "testing"

func TestGet(t *testing.T) {
	c := New(1)
	for i := 0; i < 3; i++ {
		if v := c.Get(); v < 1 {
			t.Errorf("Get = %d", v)
		}
	}
	c.Drain()
}
