package gate

import "testing"

func TestGateReleasesInOrder(t *testing.T) {
	g := New(2)
	calls := []Call{g.Start(), g.Start()}
	for i, c := range calls {
		c.Release()
		if !c.Result() {
			t.Errorf("call %d was refused", i)
		}
	}
}
