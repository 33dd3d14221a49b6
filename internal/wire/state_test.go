package wire

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := StatePath(dir, "example.com/a/b", "TestX")
	if filepath.Dir(p) != dir || filepath.Base(p) != "example.com_a_b-TestX.json" {
		t.Fatalf("state path %s", p)
	}
	if st, err := ReadState(p); st != nil || err != nil {
		t.Fatalf("missing state: %+v, %v", st, err)
	}
	in := &State{Package: "example.com/a/b", Test: "TestX", Strategy: "dfs", Seed: 4, Schedules: 17, Keys: []string{"k"}, Search: []byte(`{"x":1}`)}
	if err := WriteState(p, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadState(p)
	var search bytes.Buffer
	if err == nil {
		err = json.Compact(&search, out.Search)
	}
	if err != nil || out.Schedules != 17 || out.Seed != 4 || search.String() != `{"x":1}` || len(out.Keys) != 1 {
		t.Fatalf("read back %+v, %v", out, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if d := out.Mismatch(&Config{Strategy: "dfs", Seed: 4, Races: "off"}); d != "" {
		t.Fatalf("same options differ: %s", d)
	}
	d := out.Mismatch(&Config{Strategy: "pb", Seed: 5, Bound: 2})
	for _, want := range []string{"strategy dfs, not pb", "seed 4, not 5", "bound 0, not 2"} {
		if !strings.Contains(d, want) {
			t.Errorf("mismatch %q lacks %q", d, want)
		}
	}
	if err := os.WriteFile(p, []byte(`{"format":99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadState(p); err == nil {
		t.Fatal("read a state of a newer format")
	}
}
