// Command gosct tests Go packages for concurrency bugs: it runs each test
// function under many schedules that it chooses, and writes every bug it
// finds (deadlock, leak, panic, failure, race, livelock) as a trace that
// `gosct replay` turns back into the same failure.
//
//	gosct test [flags] [packages] [-- go test flags]
//	gosct replay [flags] TRACE
//	gosct confirm [flags] TRACE
//	gosct view [--format html|perfetto] TRACE
//	gosct rewrite [--diff] PATTERN
//	gosct split --into N DIR
//	gosct merge [--watch] DIR...
//
// Exit status: 0 when every explored schedule passed, 1 when a bug was
// found, 2 for anything else. See docs/usage.md.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/gosct/gosct/internal/wire"
)

// Exit statuses: scripts rely on them, so a bug is never exitError and an
// error never exitBug.
const (
	exitOK    = 0
	exitBug   = 1
	exitError = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

const usage = `gosct finds concurrency bugs in Go tests by running them under many schedules.

Usage:
	gosct test [flags] [packages] [-- go test flags]
	gosct replay [flags] TRACE
	gosct confirm [flags] TRACE
	gosct view [--format html|perfetto] TRACE
	gosct rewrite [--diff] PATTERN
	gosct split --into N DIR
	gosct merge [--json] [--watch] DIR...
	gosct version

Run "gosct COMMAND --help" for the flags of a command.
Exit status: 0 all schedules passed, 1 a bug was found, 2 anything else.
`

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "test":
		return cmdTest(ctx, rest, stdout, stderr)
	case "replay":
		return cmdReplay(ctx, rest, stdout, stderr)
	case "confirm":
		return cmdConfirm(ctx, rest, stdout, stderr)
	case "view":
		return cmdView(ctx, rest, stdout, stderr)
	case "rewrite":
		return cmdRewrite(ctx, rest, stdout, stderr)
	case "split":
		return cmdSplit(ctx, rest, stdout, stderr)
	case "merge":
		return cmdMerge(ctx, rest, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, versionString())
		return exitOK
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "gosct: unknown command %q\n\n%s", cmd, usage)
		return exitError
	}
}

// versionString is gosct's version (the one traces record) and the
// toolchain it was built with.
func versionString() string {
	return fmt.Sprintf("gosct %s (%s %s/%s)", wire.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
