// Command ptmeasure measures the pass-through overhead of instrumentation
// (docs/performance.md): it runs a module's tests plain and instrumented
// without control, side by side. Usage: go run ./tools/ptmeasure DIR
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/gosct/gosct/rewrite"
)

func run(dir string, args ...string) time.Duration {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	t := time.Now()
	if err := cmd.Run(); err != nil {
		fmt.Println("error:", err)
	}
	return time.Since(t)
}

func main() {
	if len(os.Args) != 2 || os.Args[1] == "-h" || os.Args[1] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: ptmeasure DIR (a module whose tests ./... are run plain and instrumented)")
		os.Exit(2)
	}
	dir := os.Args[1]
	b, err := rewrite.Instrument(context.Background(), rewrite.Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ptmeasure: instrumenting %s: %v\n", dir, err)
		os.Exit(2)
	}
	// Build both first, so only running is timed.
	run(dir, append([]string{"test", "-count=1", "-run", "XXX", "-overlay", b.Overlay}, append(b.Flags, "./...")...)...)
	run(dir, "test", "-count=1", "-run", "XXX", "./...")
	for i := 0; i < 3; i++ {
		p := run(dir, "test", "-count=1", "./...")
		g := run(dir, append([]string{"test", "-count=1", "-overlay", b.Overlay}, append(b.Flags, "./...")...)...)
		fmt.Printf("round %d: plain %v instrumented %v ratio %.2f\n", i, p.Round(time.Millisecond), g.Round(time.Millisecond), float64(g)/float64(p))
	}
}
