package main

import (
	"os"
	"path/filepath"

	"github.com/gosct/gosct/internal/testbin"
	"github.com/gosct/gosct/rewrite"
)

// plainBuilds tells the user whose fault a failed build is: it builds the
// package's test binary as go test would, without the overlay (the user's
// own files and go.mod, the user's build flags), and says whether that
// builds. Once the run is interrupted it says nothing: the builds are
// being stopped, and neither failure says anything about the package.
func (r *runner) plainBuilds(pkg *rewrite.Package) string {
	if r.ctx.Err() != nil {
		return ""
	}
	dir, err := os.MkdirTemp(r.tmp, "plain-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(dir)
	var flags []string
	if r.gt.tags != "" {
		flags = append(flags, "-tags="+r.gt.tags)
	}
	flags = append(flags, r.gt.build...)
	if _, err := testbin.Build(r.ctx, r.build.ModDir, "", flags, pkg.ImportPath, filepath.Join(dir, "plain.test")); err != nil {
		if r.ctx.Err() != nil {
			return ""
		}
		return "go test does not build it either: fix the build first (go test -c " + pkg.ImportPath + ")"
	}
	return "go test builds it: the failure is gosct's (its instrumentation or the overlaid go.mod); please report it with the output above"
}
