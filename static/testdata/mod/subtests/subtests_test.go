package subtests

import "testing"

func TestSub(t *testing.T) {
	c := &counter{}
	t.Run("inc", func(t *testing.T) {
		go c.inc()
		if c.n != 0 { // line 9
			t.Errorf("n = %d", c.n) // line 10
		}
	})
}
