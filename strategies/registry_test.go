package strategies

import "testing"

func TestRegistry(t *testing.T) {
	if _, ok := Lookup(DefaultStrategy); !ok {
		t.Fatalf("the default strategy %q is not registered", DefaultStrategy)
	}
	for _, i := range All() {
		if i.Summary == "" {
			t.Errorf("%s has no summary", i.Name)
		}
		if i.Systematic && i.Sampling {
			t.Errorf("%s is both systematic and sampling", i.Name)
		}
		s, err := New(i.Name, Options{Seed: 1})
		if err != nil || s == nil {
			t.Errorf("New(%s) = %v, %v", i.Name, s, err)
		}
	}
	for name, systematic := range map[string]bool{"dfs": true, "pb": true, "db": true, "random": false, "pct": false, "portfolio": false} {
		if i, ok := Lookup(name); !ok || i.Systematic != systematic {
			t.Errorf("Lookup(%s) = %+v, %v; want systematic %v", name, i, ok, systematic)
		}
	}
	if _, err := New("bfs", Options{}); err == nil {
		t.Errorf("New(bfs) succeeded")
	}
}
