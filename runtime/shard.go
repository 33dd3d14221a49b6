package runtime

import (
	"fmt"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// A part of a sharded search (wire.Config.Shards > 1, gosct test --shard):
// the strategy is told which part it is before its first execution (and
// before a saved part is loaded). A strategy whose schedules are numbered
// (strategies.Seeker) runs its range of the numbers, and the schedules keep
// the numbers of the whole search; a divided tree (strategies.Sharder)
// runs its own subtrees, and an execution the strategy did not own is a
// probe, neither counted nor reported (explore).

// shard gives the strategy its part.
//
//go:norace
func (x *explorer) shard() error {
	sk, seeks := x.strat.(strategies.Seeker)
	sh, divides := x.strat.(strategies.Sharder)
	if !seeks && !divides {
		return fmt.Errorf("strategy %s cannot be divided among machines (--shard): divide the tests instead (--shard-by tests)", x.c.Strategy)
	}
	if divides {
		if err := sh.Shard(x.c.Shard-1, x.c.Shards); err != nil {
			return err
		}
		x.sharder = sh
	}
	if seeks {
		total := x.c.Total
		if total <= 0 {
			total = x.c.Schedules
		}
		if total <= 0 {
			total = strategies.DefaultSchedules
		}
		first, end := wire.ShardRange(total, x.c.Shard, x.c.Shards)
		sk.Seek(first)
		x.ranged, x.offset, x.rangeLen = true, first, end-first
	}
	return nil
}

// number is the number of the current schedule in the whole search.
//
//go:norace
func (x *explorer) number() int { return x.offset + x.schedules }
