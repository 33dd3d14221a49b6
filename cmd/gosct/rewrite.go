package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gosct/gosct/rewrite"
	"github.com/spf13/pflag"
)

// instrument and source are the rewriter; tests replace them.
var (
	instrument = rewrite.Instrument
	source     = rewrite.Source
)

const rewriteUsage = `usage: gosct rewrite [--diff] [--tags TAGS] [--deps] PATTERN...

Prints the instrumented source of the packages' files, as gosct test builds
them (or, with --diff, the changes against the original files).

Flags:
`

func cmdRewrite(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var diff, deps bool
	var tags string
	fs := pflag.NewFlagSet("gosct rewrite", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&diff, "diff", false, "print a diff against the original files")
	fs.StringVar(&tags, "tags", "", "build tags, as for go test -tags")
	fs.BoolVar(&deps, "deps", false, "also instrument the packages of dependency modules")
	err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		return printUsage(stdout, rewriteUsage, fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct rewrite: %v\n", err)
		return exitError
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "gosct rewrite: no package given (e.g. gosct rewrite ./pkg)\n")
		return exitError
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "gosct rewrite: %v\n", err)
		return exitError
	}
	b, err := instrument(ctx, rewrite.Options{Dir: cwd, Patterns: fs.Args(), Tags: tags, Deps: deps})
	if err != nil {
		fmt.Fprintf(stderr, "gosct rewrite: %s\n", instrumentError(err))
		return exitError
	}
	for _, w := range b.Warnings {
		fmt.Fprintf(stderr, "gosct: warning: %s\n", w)
	}
	if err := source(b, diff, stdout); err != nil {
		fmt.Fprintf(stderr, "gosct rewrite: %v\n", err)
		return exitError
	}
	return exitOK
}
