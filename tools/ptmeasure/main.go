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
	dir := os.Args[1]
	b, err := rewrite.Instrument(context.Background(), rewrite.Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		panic(err)
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
