package condmissed

import "testing"

func TestWaitForLoad(t *testing.T) {
	l := Start([]string{"a", "b"})
	if got := l.Wait(); len(got) != 2 {
		t.Errorf("Wait = %v, want [a b]", got)
	}
}
