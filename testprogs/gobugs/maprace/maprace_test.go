package maprace

import "testing"

func TestGetWhileWarming(t *testing.T) {
	c := NewCache()
	c.m["root"] = 0
	done := c.Warm(map[string]int{"alice": 1, "bob": 2})
	if id, ok := c.Get("root"); !ok || id != 0 {
		t.Errorf("Get(root) = %d, %v; want 0, true", id, ok)
	}
	<-done
	if id, ok := c.Get("bob"); !ok || id != 2 {
		t.Errorf("Get(bob) = %d, %v; want 2, true", id, ok)
	}
}
