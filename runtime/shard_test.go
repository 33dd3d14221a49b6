package runtime

import (
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// TestShardedParts: the parts of a divided search explore, together, the
// schedules of the whole search: a dfs tree in parts that each end
// exhausted, and a random range of numbers.
func TestShardedParts(t *testing.T) {
	for _, strategy := range []string{"dfs", "db", "random", "portfolio"} {
		t.Run(strategy, func(t *testing.T) {
			base := wire.Config{Mode: "explore", Strategy: strategy, Seed: 3, Schedules: 100000, TraceDir: t.TempDir()}
			if strategy == "random" || strategy == "portfolio" {
				base.Schedules = 50
			}
			full := runExplorer(t, &base, small)
			for _, n := range []int{2, 3} {
				total, exhausted := 0, 0
				next := 0
				for i := 1; i <= n; i++ {
					c := base
					c.Shard, c.Shards, c.Total = i, n, base.Schedules
					x := runExplorer(t, &c, small)
					total += x.schedules
					if x.exhausted {
						exhausted++
					}
					if x.ranged && (x.offset != next || x.schedules != x.rangeLen) {
						t.Fatalf("part %d of %d: schedules %d..%d, want from %d", i, n, x.offset+1, x.offset+x.schedules, next+1)
					}
					next = x.offset + x.schedules
				}
				if total != full.schedules {
					t.Fatalf("%d parts explored %d schedules, the whole search %d", n, total, full.schedules)
				}
				if full.exhausted && exhausted != n {
					t.Fatalf("%d of %d parts exhausted, the whole search was", exhausted, n)
				}
			}
		})
	}
}

// TestShardedResume: a part saved and resumed runs what is left of its
// part, and no more.
func TestShardedResume(t *testing.T) {
	for _, strategy := range []string{"dfs", "random"} {
		c := wire.Config{Mode: "explore", Strategy: strategy, Seed: 3, Schedules: 40, TraceDir: t.TempDir(),
			Shard: 2, Shards: 3, Total: 40}
		if strategy == "dfs" {
			c.Schedules, c.Total = 100000, 100000
		}
		want := runExplorer(t, &c, small).schedules
		c.State = t.TempDir()
		total := 0
		for runs := 0; runs < 1000; runs++ {
			c.Schedules = 25
			x := runExplorer(t, &c, small)
			if x.schedules == total {
				break
			}
			total = x.schedules
		}
		if total != want {
			t.Fatalf("%s: resumed part ran %d schedules in all, want %d", strategy, total, want)
		}
		c.Shard = 3
		if _, err := newExplorer(t, &c); err == nil {
			t.Fatalf("%s: part 3 resumed the saved search of part 2", strategy)
		}
	}
}

func TestShardRefusesUndividable(t *testing.T) {
	c := wire.Config{Mode: "explore", Strategy: "dfsrb", Seed: 3, Schedules: 10, TraceDir: t.TempDir(), Shard: 1, Shards: 2}
	if _, err := newExplorer(t, &c); err == nil {
		t.Fatal("dfsrb was divided among machines")
	}
}
