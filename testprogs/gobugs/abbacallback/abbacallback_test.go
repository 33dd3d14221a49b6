package abbacallback

import "testing"

func TestHealthWhileNodeFails(t *testing.T) {
	var m Manager
	n := m.AddNode("n1")
	m.AddNode("n2")
	done := make(chan struct{})
	go func() {
		n.SetHealthy(false)
		close(done)
	}()
	if h := m.Healthy(); h != 1 && h != 2 {
		t.Errorf("Healthy = %d, want 1 or 2", h)
	}
	<-done
	if m.Changes() != 1 || m.Healthy() != 1 {
		t.Errorf("after failure: changes=%d healthy=%d, want 1 and 1", m.Changes(), m.Healthy())
	}
}
