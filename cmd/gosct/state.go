package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/gosct/gosct/internal/wire"
)

// prepareState readies the --state directory: absolute, created, and
// consistent with this run. A saved search is only meaningful to a strategy
// of the same name and options, so the files already there must have been
// saved with this run's options; without --seed the run takes the seed they
// were saved with, since the default, a fresh seed per run, could never
// resume anything.
func prepareState(o *testOptions) (string, error) {
	dir, err := filepath.Abs(o.state)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot create the state directory: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	var states []*wire.State
	var names []string
	seeds := map[int64]string{}
	for _, f := range files {
		st, err := wire.ReadState(f)
		if err != nil {
			return "", usagef("--state %s: %v", o.state, err)
		}
		if st == nil {
			continue // removed meanwhile
		}
		states = append(states, st)
		names = append(names, filepath.Base(f))
		seeds[st.Seed] = f
	}
	if !o.seedSet && len(seeds) > 0 {
		if len(seeds) > 1 {
			return "", usagef("--state %s holds searches saved with %d different seeds: give --seed", o.state, len(seeds))
		}
		for s := range seeds {
			o.seed, o.seedSet = s, true
		}
	}
	c := &wire.Config{Strategy: o.strategy, Seed: o.seed, Bound: o.bound, Depth: o.depth, States: o.states, Races: o.races}
	if o.by == "schedules" && o.shards > 1 {
		c.Shard, c.Shards, c.Total = o.shardIndex, o.shards, o.schedules
	}
	for i, st := range states {
		if d := st.Mismatch(c); d != "" {
			return "", usagef("--state %s: %s was saved with other options (%s): run with the options it was saved with, or use another directory",
				o.state, names[i], d)
		}
	}
	return dir, nil
}

// runStateDir is the directory of the searches of a --per-process run
// without --state. Every schedule saves its search twice, and replacing a
// file by a rename costs over a millisecond on a disk file system (ext4
// flushes the new file's data first), a quarter of a schedule: in memory
// (/dev/shm, where there is one) it costs microseconds.
func runStateDir(tmp string) (string, func()) {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "gosct-state-"); err == nil {
			return dir, func() { os.RemoveAll(dir) }
		}
	}
	return filepath.Join(tmp, "state"), func() {}
}
