package runtime

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// locating is a random strategy that asks for positions (or not) and
// records what Point.Where says at every goroutine decision.
type locating struct {
	strategies.Strategy
	locates bool
	nilAt   int
	seen    map[string]bool // "op file:line file:line..."
	moves   map[int]int
}

func (l *locating) Locates() bool { return l.locates }

func (l *locating) NewExecution() bool {
	l.moves = map[int]int{}
	return l.Strategy.NewExecution()
}

func (l *locating) Next(p *strategies.Point) int {
	if p.Kind == strategies.Goroutine {
		if p.Where == nil {
			l.nilAt++
		} else {
			for _, id := range p.Choices {
				op, frames, moves := p.Where.Where(id)
				var b strings.Builder
				b.WriteString(op)
				for _, f := range frames {
					b.WriteString(" " + filepath.Base(f.File) + ":" + itoa(f.Line))
				}
				l.seen[b.String()] = true
				if moves < l.moves[id] {
					l.seen["moves went down"] = true
				}
				l.moves[id] = moves
			}
		}
	}
	return l.Strategy.Next(p)
}

// line is the line of its caller.
func line() int {
	_, _, n, _ := runtime.Caller(1)
	return n
}

var lockLine, callLine, goLine int

func locateHelper(mu *mutexPair) {
	lockLine = line() + 1
	Lock(&mu.a)
	Unlock(&mu.a)
}

type mutexPair struct{ a sync.Mutex }

// Where gives each goroutine's pending operation and its stack in user
// code, innermost first; a goroutine not started yet stands at its go
// statement.
func TestWhere(t *testing.T) {
	old := internalFrame
	internalFrame = func(fn string) bool {
		return isRuntimeFrame(fn) && !strings.Contains(fn, "runtime.TestWhere") && !strings.Contains(fn, "runtime.locateHelper")
	}
	resetFrameCaches()
	defer func() {
		internalFrame = old
		resetFrameCaches()
	}()
	for _, locates := range []bool{true, false} {
		x, err := newExplorer(t, &wire.Config{Mode: "explore", Schedules: 20, Seed: 1, TraceDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		l := &locating{Strategy: strategies.NewRandom(strategies.Options{Seed: 1}), locates: locates, seen: map[string]bool{}, moves: map[int]int{}}
		x.strat = l
		x.explore(func(t *testing.T) {
			var mu mutexPair
			done := Chan(make(chan bool))
			goLine = line() + 1
			Go(func() { callLine = line(); locateHelper(&mu); Send(done, true) })
			Lock(&mu.a)
			Unlock(&mu.a)
			Recv(done)
		})
		if x.bugs > 0 {
			t.Fatalf("a bug")
		}
		if !locates {
			if len(l.seen) > 0 || l.nilAt == 0 {
				t.Errorf("positions given to a strategy that did not ask for them")
			}
			continue
		}
		if l.seen["moves went down"] {
			t.Errorf("a goroutine's moves went down within an execution")
		}
		file := "locate_test.go"
		for _, want := range []string{
			"start " + file + ":" + itoa(goLine),
			"mutex lock " + file + ":" + itoa(lockLine) + " " + file + ":" + itoa(callLine),
		} {
			if !l.seen[want] {
				t.Errorf("no position %q among %v", want, l.seen)
			}
		}
	}
}
