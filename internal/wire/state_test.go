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

func TestStateMismatchShard(t *testing.T) {
	st := &State{Strategy: "random", Seed: 1, Shard: 2, Shards: 3, Total: 300}
	if d := st.Mismatch(&Config{Strategy: "random", Seed: 1, Shard: 2, Shards: 3, Total: 300}); d != "" {
		t.Fatalf("same part differs: %s", d)
	}
	for c, want := range map[*Config]string{
		{Strategy: "random", Seed: 1, Shard: 1, Shards: 3, Total: 300}: "part 2 of 3, not part 1 of 3",
		{Strategy: "random", Seed: 1}:                                  "part 2 of 3, not the whole search",
		{Strategy: "random", Seed: 1, Shard: 2, Shards: 3, Total: 600}: "a divided search of 300 schedules, not 600",
	} {
		if d := st.Mismatch(c); !strings.Contains(d, want) {
			t.Errorf("mismatch %q, want %q", d, want)
		}
	}
	tree := &State{Strategy: "dfs", Shard: 2, Shards: 3}
	if d := tree.Mismatch(&Config{Strategy: "dfs", Shard: 2, Shards: 3, Total: 600}); d != "" {
		t.Errorf("a part of a tree depends on the schedules: %s", d)
	}
}

func TestShardRange(t *testing.T) {
	for _, total := range []int{0, 1, 7, 1000, 1001} {
		for _, n := range []int{1, 2, 3, 8} {
			next := 0
			for i := 1; i <= n; i++ {
				a, b := ShardRange(total, i, n)
				if a != next || b < a || b-a > total/n+1 {
					t.Fatalf("total %d part %d of %d: %d..%d after %d", total, i, n, a, b, next)
				}
				next = b
			}
			if next != total {
				t.Fatalf("total %d into %d: ranges end at %d", total, n, next)
			}
		}
	}
}
