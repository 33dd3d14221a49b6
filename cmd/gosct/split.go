package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
	"github.com/spf13/pflag"
)

const splitUsage = `usage: gosct split --into N DIR

Divides the searches saved in DIR (by gosct test --state DIR) into N parts,
written to DIR.1 ... DIR.N: run "gosct test --state DIR.i" with the same
flags on N machines and together they explore exactly the schedules the
saved searches had left, each once (dpor: every trace they had left, at
least once). Only dfs, pb, db and dpor can be split; random strategies
need no splitting: give each machine another --seed.

Flags:
`

func cmdSplit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var into int
	fs := pflag.NewFlagSet("gosct split", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&into, "into", 2, "number of parts")
	err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		return printUsage(stdout, splitUsage, fs)
	}
	if err == nil && fs.NArg() != 1 {
		err = fmt.Errorf("give one state directory (gosct split --into N DIR)")
	}
	if err == nil && into < 1 {
		err = fmt.Errorf("--into must be at least 1, not %d", into)
	}
	if err == nil {
		err = splitStates(fs.Arg(0), into, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct split: %v\n", err)
		return exitError
	}
	return exitOK
}

// splitStates splits every state file of dir. Nothing is written unless
// every file can be split.
func splitStates(dir string, n int, stdout io.Writer) error {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	if len(files) == 0 {
		return fmt.Errorf("%s holds no saved search (gosct test --state %s writes them)", dir, dir)
	}
	out := make([][]*wire.State, n)
	for _, f := range files {
		st, err := wire.ReadState(f)
		if err != nil {
			return err
		}
		if st == nil {
			continue
		}
		parts, err := splitState(st, n)
		if err != nil {
			return fmt.Errorf("%s (%s %s): %v", filepath.Base(f), st.Package, st.Test, err)
		}
		for i := range parts {
			out[i] = append(out[i], parts[i])
		}
	}
	for i, states := range out {
		d := fmt.Sprintf("%s.%d", filepath.Clean(dir), i+1)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		for _, st := range states {
			if err := wire.WriteState(wire.StatePath(d, st.Package, st.Test), st); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "%s: %d saved search%s\n", d, len(states), plural(len(states)))
	}
	return nil
}

// splitState divides one test's saved search into n states that differ
// only in the search itself.
func splitState(st *wire.State, n int) ([]*wire.State, error) {
	if st.Running {
		return nil, fmt.Errorf("saved while a schedule ran (--per-process): resume it once, then split it")
	}
	s, err := strategies.New(st.Strategy, strategies.Options{Seed: st.Seed, Bound: st.Bound, Depth: st.Depth, States: st.States})
	if err != nil {
		return nil, err
	}
	if i, _ := strategies.Lookup(st.Strategy); !i.Splits {
		only := strategies.Listed(func(i strategies.Info) bool { return i.Splits })
		return nil, fmt.Errorf("a %s search cannot be split (only %s): run the machines with different --seed values instead", st.Strategy, joinAnd(only))
	}
	sp := s.(strategies.Splitter)
	if err := s.(strategies.Saver).Load(bytes.NewReader(st.Search)); err != nil {
		return nil, err
	}
	parts, err := sp.Split(n)
	if err != nil {
		return nil, err
	}
	var out []*wire.State
	for _, p := range parts {
		c := *st
		c.Search = bytes.TrimSpace(p)
		out = append(out, &c)
	}
	return out, nil
}
