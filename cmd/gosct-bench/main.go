// Command gosct-bench runs gosct's strategies over the testprogs corpus and
// writes a results table next to the SCTBench paper's figures.
//
//	go run ./cmd/gosct-bench                      # the full benchmark, writes docs/results.md
//	go run ./cmd/gosct-bench --check --programs 'abba|account' --strategies random,pct3
//
// With --check it exits 1 when a known bug is missed by every strategy or a
// fixed program is reported buggy (CI's slice, .ci/bench-slice).
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/gosct/gosct/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := bench.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
