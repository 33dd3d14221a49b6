package runtime

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// panicky is a strategy that panics at its third decision.
type panicky struct {
	strategies.Strategy
	n int
}

func (p *panicky) Next(pt *strategies.Point) int {
	if p.n++; p.n == 3 {
		panic("injected")
	}
	return p.Strategy.Next(pt)
}

func TestVictimStrategyPanics(t *testing.T) {
	victimOnly(t)
	c := &wire.Config{Mode: "explore", Strategy: "random", Schedules: 5, Seed: 1, TraceDir: t.TempDir()}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.strat = &panicky{Strategy: x.strat}
	x.explore(func(t *testing.T) {
		ch := Chan(make(chan int))
		Go(func() { Send(ch, 1) })
		Go(func() { Send(ch, 2) })
		Recv(ch)
		Recv(ch)
	})
}

// A strategy that panics ends the test binary with an internal error; it
// does not hang it (the panic unwinds with the execution's lock held).
func TestStrategyPanicIsInternalError(t *testing.T) {
	// The child's own timeout bounds a hang; its message tells the two
	// apart.
	cmd := exec.Command(os.Args[0], "-test.run=^TestVictimStrategyPanics$", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), victimEnv+"=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "gosct: internal error: the strategy panicked: injected") {
		t.Fatalf("exit %v, output:\n%s", err, out)
	}
}
