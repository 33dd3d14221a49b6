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

// TestInfo checks that what Info says a strategy can do is what the
// strategy New returns does, whatever its options: the command and the
// benchmark trust Info and build no strategy to learn it.
func TestInfo(t *testing.T) {
	listed := map[string]bool{}
	for _, n := range listOrder {
		listed[n] = true
	}
	for _, i := range All() {
		if !listed[i.Name] {
			t.Errorf("%s is missing from listOrder", i.Name)
		}
		for _, m := range i.Members {
			if _, ok := Lookup(m); !ok {
				t.Errorf("%s: member %s is not registered", i.Name, m)
			}
		}
		for _, o := range []Options{{}, {Seed: 3, Bound: 2, Depth: 2, States: true, Walk: -1}, {DFSRB: "portfolio"}, {Guide: "no-such-guide.json"}} {
			s := i.New(o)
			_, seeks := s.(Seeker)
			_, shards := s.(Sharder)
			_, splits := s.(Splitter)
			_, saves := s.(Saver)
			if seeks != i.Ranged || shards != i.Tree || splits != i.Splits || saves != i.Resumes {
				t.Errorf("%s with %+v: Seeker %v, Sharder %v, Splitter %v, Saver %v; Info says %v, %v, %v, %v",
					i.Name, o, seeks, shards, splits, saves, i.Ranged, i.Tree, i.Splits, i.Resumes)
			}
		}
	}
	if n := len(Listed(func(Info) bool { return true })); n != len(All()) {
		t.Errorf("Listed names %d strategies, the registry has %d", n, len(All()))
	}
	if i, ok := Lookup(ChangeStrategy); !ok || !i.Has(OptFragments) {
		t.Errorf("ChangeStrategy %q does not read the fragments of a change", ChangeStrategy)
	}
}
