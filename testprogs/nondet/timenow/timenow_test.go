package timenow

import "testing"

func TestDo(t *testing.T) {
	p := NewPool()
	if v := p.Do(); v != 1 {
		t.Errorf("Do = %d, want 1", v)
	}
	p.Close()
}
