package rwrecursive

import "testing"

func TestResolveWhileRegistering(t *testing.T) {
	r := NewRegistry(map[string]string{"a": "10.0.0.1", "b": "10.0.0.2"})
	done := make(chan struct{})
	go func() {
		r.Register("c", "10.0.0.3")
		close(done)
	}()
	got := r.Resolve([]string{"a", "b"})
	<-done
	if len(got) != 2 {
		t.Errorf("Resolve = %v, want two addresses", got)
	}
}
