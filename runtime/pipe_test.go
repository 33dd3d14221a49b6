package runtime

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// Which of two Writes a Read takes is the strategy's decision: dfs sees
// both orders and dpor exhausts the program, no step of it outside
// control.
func TestPipeWritersInEveryOrder(t *testing.T) {
	seen := map[string]bool{}
	x := check(t, "dpor", 5000, func(t *testing.T) {
		r, w := Pipe()
		Go(func() { w.Write([]byte("a")) })
		Go(func() { w.Write([]byte("b")) })
		b := make([]byte, 2)
		r.Read(b[:1])
		r.Read(b[1:])
		seen[string(b)] = true
	})
	if !seen["ab"] || !seen["ba"] || len(seen) != 2 {
		t.Errorf("outcomes %v, want ab and ba", seen)
	}
	wantProof(t, x)
}

// A Close racing with a Write is a decision too: the Read gets the data
// in some schedules, EOF in others.
func TestPipeCloseRacesWithWrite(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dpor", 5000, func(t *testing.T) {
		r, w := Pipe()
		Go(func() { w.Write([]byte("x")) })
		Go(func() { w.Close() })
		b := make([]byte, 1)
		n, err := r.Read(b)
		seen[fmt.Sprint(n, err)] = true
		r.Close() // let a Write that lost return
	})
	if !seen["1 <nil>"] || !seen["0 EOF"] || len(seen) != 2 {
		t.Errorf("outcomes %v, want 1 <nil> and 0 EOF", seen)
	}
}

// pipeOps are one pipe's operations, io's own or the model's.
type pipeOps struct {
	read           func([]byte) (int, error)
	write          func([]byte) (int, error)
	closeR, closeW func(error) error
}

// pipeScript drives a pipe through Go's documented behaviours in one
// goroutine and a helper, and returns what it saw.
func pipeScript(p pipeOps, spawn func(func())) string {
	var out strings.Builder
	say := func(n int, err error) { fmt.Fprintf(&out, "%d %v; ", n, err) }
	// One Write consumed by two Reads.
	spawn(func() { p.write([]byte("abc")) })
	b := make([]byte, 2)
	say(p.read(b))
	say(p.read(b))
	// A Write of nothing still waits for a Read.
	spawn(func() { p.write(nil) })
	say(p.read(b))
	// The writer's error is the Reads' error; the first error stays.
	p.closeW(errors.New("boom"))
	p.closeW(errors.New("second"))
	say(p.read(b))
	say(p.write([]byte("x")))
	p.closeR(nil)
	say(p.read(b))
	say(p.write([]byte("x")))
	return out.String()
}

// The model behaves as io.Pipe, error for error.
func TestPipeMatchesIO(t *testing.T) {
	r, w := io.Pipe()
	// The writers outside executions are waited for: one still returning
	// from its Write would run on into the next test's executions.
	var helpers sync.WaitGroup
	defer helpers.Wait()
	spawn := func(f func()) { helpers.Go(f) }
	want := pipeScript(pipeOps{r.Read, w.Write, r.CloseWithError, w.CloseWithError}, spawn)
	check(t, "random", 20, func(t *testing.T) {
		r, w := Pipe()
		if got := pipeScript(pipeOps{r.Read, w.Write, r.CloseWithError, w.CloseWithError}, Go); got != want {
			t.Errorf("model: %s\nio:    %s", got, want)
		}
	})
	// Outside an execution, the model is Go code as io's is.
	r2, w2 := Pipe()
	got := pipeScript(pipeOps{r2.Read, w2.Write, r2.CloseWithError, w2.CloseWithError}, spawn)
	if got != want {
		t.Errorf("uncontrolled model: %s\nio:                 %s", got, want)
	}
}

// Ends given to library code as an io.Writer and an io.Reader stay
// controlled: fmt writes and io.ReadAll reads through the model, and dpor
// exhausts the program without a step outside its control.
func TestPipeThroughLibraries(t *testing.T) {
	x := check(t, "dpor", 5000, func(t *testing.T) {
		r, w := Pipe()
		Go(func() {
			fmt.Fprint(w, "hello")
			w.Close()
		})
		b, err := io.ReadAll(r)
		if string(b) != "hello" || err != nil {
			t.Errorf("read %q, %v", b, err)
		}
	})
	wantProof(t, x)
}
