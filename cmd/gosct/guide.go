package main

import (
	"fmt"
	"runtime/debug"

	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/static"
	"github.com/gosct/gosct/strategies"
)

// computeGuide runs the static analysis of guided search on the packages
// the rewriter loaded, before it rewrites them, and returns the path of
// the guide file (cached per build). The analysis is gosct's code, not
// the user's: should it panic on code it does not expect, the error says
// so, and the search goes on unguided.
func computeGuide(l *rewrite.Loaded, o static.Options) (path string, err error) {
	defer func() {
		if r := recover(); r != nil {
			path, err = "", fmt.Errorf("internal error in gosct's static analysis: %v\n%s", r, debug.Stack())
		}
	}()
	path, _, err = static.CachedGuide(l.Fset, l.Packages, l.CacheDir, o)
	return path, err
}

// noGuide says what a strategy that steers by a guide does without one:
// guided search walks at random, a composite runs without its member that
// steers.
func noGuide(strategy string) string {
	i, _ := strategies.Lookup(strategy)
	if !i.Composite() {
		return strategy + " search has no guide, it runs as a random walk"
	}
	for _, m := range i.Members {
		if mi, _ := strategies.Lookup(m); mi.Has(strategies.OptGuide) && !mi.Composite() {
			return fmt.Sprintf("the %s runs without %s search", strategy, m)
		}
	}
	return "the " + strategy + " runs without a guide"
}
