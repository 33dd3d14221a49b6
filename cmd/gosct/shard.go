package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/strategies"
)

// One search on many machines (gosct test --shard I/N): every machine runs
// the same command with its own I, the job engine that runs them (a
// Kubernetes Indexed Job, a CI matrix) gives each its index, and gosct merge
// puts their results together. The division is deterministic, computed by
// each machine alone from the same code and flags:
//
//   - by tests: the selected test functions of all packages, in order, are
//     dealt round-robin; each runs on one machine exactly as it would in
//     one process;
//   - by schedules: every machine explores every test, each a part of its
//     search (wire.Config.Shard): a range of the schedule numbers for
//     random, PCT and the portfolio, a part of the tree for dfs, pb and db.
//
// Either way the machines' results together are one run's.

// Environment variables the job engines set. Kubernetes Indexed Jobs number
// their pods from 0 and do not give the count (the flag does: env/N);
// GitLab CI's parallel jobs number from 1 and give both. A GitHub Actions
// matrix sets nothing of its own: its workflow passes the index, as in
// --shard ${{ matrix.shard }}/4.
const (
	envK8sIndex    = "JOB_COMPLETION_INDEX"
	envGitLabIndex = "CI_NODE_INDEX"
	envGitLabTotal = "CI_NODE_TOTAL"
)

// parseShard reads --shard: "I/N" with 1 <= I <= N, or "env" or "env/N",
// the index (and the count) from the environment (getenv).
func parseShard(spec string, getenv func(string) string) (i, n int, err error) {
	idx, count, hasCount := strings.Cut(spec, "/")
	if hasCount {
		if n, err = strconv.Atoi(count); err != nil || n < 1 {
			return 0, 0, usagef("--shard %s: the number of shards must be a positive number, not %q", spec, count)
		}
	}
	switch {
	case idx == "env":
		if i, n, err = shardFromEnv(getenv, n); err != nil {
			return 0, 0, usagef("--shard %s: %v", spec, err)
		}
	case !hasCount:
		return 0, 0, usagef("--shard must be I/N (part I of N, from 1), env or env/N, not %q", spec)
	default:
		if i, err = strconv.Atoi(idx); err != nil {
			return 0, 0, usagef("--shard %s: the shard must be a number from 1 to %d, not %q", spec, n, idx)
		}
	}
	if i < 1 || i > n {
		return 0, 0, usagef("--shard %s: shard %d is not between 1 and %d (shards are numbered from 1)", spec, i, n)
	}
	return i, n, nil
}

// shardFromEnv finds the shard in the job engine's environment; n is the
// count given to the flag, 0 if none.
func shardFromEnv(getenv func(string) string, n int) (i, count int, err error) {
	num := func(name string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a number", name, getenv(name))
		}
		return v, nil
	}
	switch {
	case getenv(envK8sIndex) != "":
		k, err := num(envK8sIndex)
		if err != nil {
			return 0, 0, err
		}
		if n == 0 {
			return 0, 0, fmt.Errorf("%s (a Kubernetes Indexed Job) gives the index, not the number of shards: give it as env/N, N the Job's completions", envK8sIndex)
		}
		return k + 1, n, nil
	case getenv(envGitLabIndex) != "":
		k, err := num(envGitLabIndex)
		if err != nil {
			return 0, 0, err
		}
		if n == 0 {
			if n, err = num(envGitLabTotal); err != nil {
				return 0, 0, err
			}
		}
		return k, n, nil
	}
	return 0, 0, fmt.Errorf("no shard index in the environment (%s of a Kubernetes Indexed Job, %s of GitLab CI's parallel jobs)", envK8sIndex, envGitLabIndex)
}

// shardName names part i of n in directories and messages: "shard-2-of-8".
func shardName(i, n int) string { return fmt.Sprintf("shard-%d-of-%d", i, n) }

// shardUnit decides what --shard divides: the tests, when asked or when
// there are enough of them for every machine (each then explores whole
// tests, exactly as one process would); else each test's schedules. A
// strategy that can be divided neither by range nor by tree (dfsrb) divides
// the tests.
func shardUnit(o *testOptions, tests int) (string, error) {
	info, _ := strategies.Lookup(o.strategy)
	divisible := info.Ranged || info.Tree
	switch o.shardBy {
	case "tests":
		return "tests", nil
	case "schedules":
		if !divisible {
			return "", usagef("--shard-by schedules: a %s search cannot be divided among machines; divide the tests (--shard-by tests)", o.strategy)
		}
		return "schedules", nil
	}
	if tests >= o.shards || !divisible {
		return "tests", nil
	}
	return "schedules", nil
}

// seeded reports whether the strategy's schedules depend on the seed: all
// but the searches of a tree that divide by tree alone (dfs, pb, db).
func seeded(i strategies.Info) bool { return i.Ranged || !i.Tree }

// ranged reports whether the strategy's shards are ranges of schedule
// numbers (random, pct, portfolio), whose --schedules is the whole
// search's, rather than parts of a tree.
func ranged(o *testOptions) bool {
	i, _ := strategies.Lookup(o.strategy)
	return i.Ranged
}

// testsOfShard deals the selected tests of every package round-robin, in
// package and test order, and returns the ones of shard i (1-based) of n,
// per package.
func testsOfShard(pkgs []*rewrite.Package, selected func([]string) []string, i, n int) map[string][]string {
	out := map[string][]string{}
	k := 0
	for _, p := range pkgs {
		for _, t := range selected(p.Tests) {
			if k%n == i-1 {
				out[p.ImportPath] = append(out[p.ImportPath], t)
			}
			k++
		}
	}
	return out
}
