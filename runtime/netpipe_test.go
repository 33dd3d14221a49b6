package runtime

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// netPipeScript drives two conns through net.Pipe's documented behaviours
// and returns what it saw; now is the clock the deadlines are set on.
func netPipeScript(c1, c2 net.Conn, spawn func(func()), now func() time.Time) string {
	var out strings.Builder
	say := func(n int, err error) {
		fmt.Fprintf(&out, "%d %v", n, err)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			var op *net.OpError
			fmt.Fprintf(&out, " (timeout, OpError %v)", errors.As(err, &op))
		}
		out.WriteString("; ")
	}
	b := make([]byte, 2)
	// One Write consumed by two Reads, in both directions.
	spawn(func() { c1.Write([]byte("abc")) })
	say(c2.Read(b))
	say(c2.Read(b))
	spawn(func() { c2.Write([]byte("de")) })
	say(c1.Read(b))
	// A deadline in the past, then none again.
	say(0, c1.SetReadDeadline(now().Add(-time.Second)))
	say(c1.Read(b))
	say(0, c1.SetReadDeadline(time.Time{}))
	spawn(func() { c2.Write([]byte("f")) })
	say(c1.Read(b))
	// A deadline that passes while the Read waits, and a Write's.
	say(0, c1.SetDeadline(now().Add(5*time.Millisecond)))
	say(c1.Read(b))
	say(c1.Write([]byte("g")))
	say(0, c1.SetDeadline(time.Time{}))
	// Closing one end.
	say(0, c1.Close())
	say(0, c1.Close())
	say(c1.Read(b))
	say(c2.Read(b))
	say(c2.Write([]byte("h")))
	say(c1.Write([]byte("h")))
	say(0, c2.SetReadDeadline(now()))
	fmt.Fprintf(&out, "%s %s", c1.LocalAddr().Network(), c2.RemoteAddr())
	return out.String()
}

// NetPipe's conns behave as net.Pipe's, error for error, in an execution
// (on the virtual clock) and outside one.
func TestNetPipeMatchesNet(t *testing.T) {
	// Writers outside executions are waited for, as in TestPipeMatchesIO.
	var helpers sync.WaitGroup
	defer helpers.Wait()
	spawn := func(f func()) { helpers.Go(f) }
	c1, c2 := net.Pipe()
	want := netPipeScript(c1, c2, spawn, time.Now)
	check(t, "random", 20, func(t *testing.T) {
		c1, c2 := NetPipe()
		if got := netPipeScript(c1, c2, Go, Now); got != want {
			t.Errorf("model: %s\nnet:   %s", got, want)
		}
	})
	c1, c2 = NetPipe()
	if got := netPipeScript(c1, c2, spawn, time.Now); got != want {
		t.Errorf("uncontrolled model: %s\nnet:                %s", got, want)
	}
}

// Which end's Write a Read takes, and whether a short deadline passes
// before the Write, are the strategy's decisions: dpor exhausts them all,
// without a step outside its control. (It takes about 4,700 schedules:
// the pipe's own locks and channels are the model's, as net.Pipe's are
// Go's, and their orders are distinct traces.)
func TestNetPipeDeadlineRacesWithWrite(t *testing.T) {
	seen := map[string]bool{}
	x := check(t, "dpor", 20000, func(t *testing.T) {
		c1, c2 := NetPipe()
		c1.SetReadDeadline(Now().Add(time.Millisecond))
		Go(func() { c2.Write([]byte("x")) })
		n, err := c1.Read(make([]byte, 1))
		seen[fmt.Sprint(n, err)] = true
		c1.Close() // a Write that lost returns
	})
	if !seen["1 <nil>"] || !seen["0 read pipe: i/o timeout"] || len(seen) != 2 {
		t.Errorf("outcomes %v, want the data and the timeout", seen)
	}
	wantProof(t, x)
}

func TestVictimNetPipeLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		c1, c2 := NetPipe()
		Go(func() { c1.Read(make([]byte, 1)) }) // nobody writes, nobody closes
		_ = c2
	})
}

// A goroutine left reading a conn nobody writes or closes is a leak.
func TestNetPipeLeakFound(t *testing.T) {
	wantBug(t, victim(t, "TestVictimNetPipeLeak", wire.Config{Strategy: "random", Schedules: 5}), "leak")
}
