package main

import (
	"fmt"
	"runtime/debug"

	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/static"
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
