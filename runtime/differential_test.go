package runtime

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Differential tests against uncontrolled Go. Each program is written with
// the hooks, as the rewriter would emit them; outside an execution every
// hook does exactly what the original operation does, so the same function
// runs once under gosct's exhaustive search and many times under Go's own
// scheduler. Every outcome Go produces must be one the search reaches: an
// outcome outside that set is a behaviour the model forbids but Go allows.
// The search must also reach exactly the outcomes the Go specification
// and memory model allow (want), no more and no fewer, as the TestOutcomes*
// tests check for more programs. The programs are free of data races, so
// the memory model promises sequentially consistent outcomes.

type diffProg struct {
	name string
	want string // the outcomes the Go specification allows, sorted
	body func(t *testing.T) string
}

var diffProgs = []diffProg{
	{"unbuffered-senders", "ab,ba", func(t *testing.T) string {
		c := Chan(make(chan string))
		Go(func() { Send(c, "a") })
		Go(func() { Send(c, "b") })
		return Recv(c) + Recv(c)
	}},
	{"buffered-senders", "ab,ba", func(t *testing.T) string {
		c := Chan(make(chan string, 2))
		done := Chan(make(chan bool))
		Go(func() { Send(c, "a"); Send(done, true) })
		Go(func() { Send(c, "b"); Send(done, true) })
		Recv(done)
		Recv(done)
		return Recv(c) + Recv(c)
	}},
	{"mutex-order", "am,ma", func(t *testing.T) string {
		var mu sync.Mutex
		var wg sync.WaitGroup
		order := ""
		add := func(id string) { Lock(&mu); order += id; Unlock(&mu) }
		Add(&wg, 1)
		Go(func() { add("a"); Done(&wg) })
		add("m")
		Wait(&wg)
		return order
	}},
	{"select-first-ready", "ab,ba", func(t *testing.T) string {
		a := Chan(make(chan string))
		b := Chan(make(chan string))
		Go(func() { Send(a, "a") })
		Go(func() { Send(b, "b") })
		var first string
		ra, rb := OnRecv(a), OnRecv(b)
		if Select(false, ra, rb) == 0 {
			first = ra.Value + Recv(b)
		} else {
			first = rb.Value + Recv(a)
		}
		return first
	}},
	{"close-or-value", "closed,value,,value,closed,", func(t *testing.T) string {
		done := Chan(make(chan struct{}))
		vals := Chan(make(chan int, 1))
		Go(func() { Close(done) })
		Go(func() { Send(vals, 7) })
		out := ""
		for i := 0; i < 2; i++ {
			rd, rv := OnRecv(done), OnRecv(vals)
			switch Select(false, rd, rv) {
			case 0:
				out += "closed,"
				done = nil // a nil channel's case never fires
			case 1:
				out += "value,"
			}
		}
		return out
	}},
	{"once-winner", "a,b", func(t *testing.T) string {
		var once sync.Once
		var wg sync.WaitGroup
		winner := ""
		for _, id := range []string{"a", "b"} {
			id := id
			Add(&wg, 1)
			Go(func() {
				Do(&once, func() { winner = id })
				Done(&wg)
			})
		}
		Wait(&wg)
		return winner
	}},
	{"rwmutex-readers-writer", "Wr,rW", func(t *testing.T) string {
		var rw sync.RWMutex
		var mu sync.Mutex // guards log, which readers share
		var wg sync.WaitGroup
		log := ""
		note := func(s string) { Lock(&mu); log += s; Unlock(&mu) }
		Add(&wg, 1)
		Go(func() { RWLock(&rw); note("W"); RWUnlock(&rw); Done(&wg) })
		RLock(&rw)
		note("r")
		RUnlock(&rw)
		Wait(&wg)
		return log
	}},
	{"cond-handoff", "x/y", func(t *testing.T) string {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		var queue []string
		var wg sync.WaitGroup
		got := ""
		Add(&wg, 1)
		Go(func() {
			Lock(&mu)
			for len(queue) == 0 {
				CondWait(c)
			}
			got += queue[0]
			queue = queue[1:]
			Unlock(&mu)
			Done(&wg)
		})
		Lock(&mu)
		queue = append(queue, "x", "y")
		Signal(c)
		Unlock(&mu)
		Wait(&wg)
		got += "/" + strings.Join(queue, "")
		return got
	}},
	{"atomic-tickets", "am,ma", func(t *testing.T) string {
		var n int32
		var mu sync.Mutex
		tickets := map[string]int32{}
		var wg sync.WaitGroup
		take := func(id string) {
			v := Then(Atomic(&n), atomic.AddInt32(&n, 1))
			Lock(&mu)
			tickets[id] = v
			Unlock(&mu)
		}
		Add(&wg, 1)
		Go(func() { take("a"); Done(&wg) })
		take("m")
		Wait(&wg)
		ids := []string{"a", "m"}
		sort.Slice(ids, func(i, j int) bool { return tickets[ids[i]] < tickets[ids[j]] })
		return strings.Join(ids, "")
	}},
}

func TestDifferentialAgainstGo(t *testing.T) {
	const runs = 2000
	for _, p := range diffProgs {
		p := p
		t.Run(p.name, func(t *testing.T) {
			got := outcomes(t, p.body)
			wantOutcomes(t, got, p.want)
			model := map[string]bool{}
			for _, o := range got {
				model[o] = true
			}
			seen := map[string]int{}
			for i := 0; i < runs; i++ {
				seen[p.body(t)]++
			}
			for o, n := range seen {
				if !model[o] {
					t.Errorf("Go produced %q (%d of %d runs), which the model never reaches; model: %v", o, n, runs, keys(model))
				}
			}
			t.Logf("model %d outcomes %v; Go produced %d of them in %d runs", len(model), keys(model), len(seen), runs)
		})
	}
}
