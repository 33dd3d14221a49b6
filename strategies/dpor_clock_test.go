package strategies

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestSharedClocksAnswerAsFullClocks checks the analysis's stored clocks,
// shared between a goroutine's steps that learn nothing, against each
// step's full vector clock: hb must answer every pair of steps as the full
// clocks do.
func TestSharedClocksAnswerAsFullClocks(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	n := 40
	if testing.Short() || raceBuild {
		n = 8
	}
	pairs, shared := 0, 0
	for k := 0; k < n; k++ {
		p := randomProg(r)
		p.goOn = true
		d := NewDPOR(Options{})
		an := &d.an
		var full [][]uint32
		an.verify = func(j int, c []uint32) {
			if j == 0 {
				full = full[:0]
			}
			full = append(full, slices.Clone(c))
			if j > 0 && &an.snap[j][0] == &an.snap[j-1][0] {
				shared++
			}
			for i := 0; i < j; i++ {
				pairs++
				for _, q := range [][2]int{{i, j}, {j, i}} {
					a, b := q[0], q[1]
					g := slot(int(an.t.steps[a].g))
					want := g < len(full[b]) && full[b][g] >= an.local[a]
					if got := an.hb(a, b); got != want {
						t.Fatalf("program %d (%s): hb(%d, %d) = %v, full clocks say %v", k, describe(p), a, b, got, want)
					}
				}
			}
		}
		explore(t, p, d, 200)
	}
	if pairs == 0 || shared == 0 {
		t.Fatalf("%d pairs compared, %d steps sharing a clock: the test checked nothing", pairs, shared)
	}
	t.Logf("%d pairs of steps compared; %d steps shared their goroutine's clock", pairs, shared)
}

// manyGoroutines is TestLRUConcurrency's shape (hashicorp/golang-lru): the
// test goroutine starts n goroutines, each of which takes one mutex,
// writes a variable, releases it and ends.
func manyGoroutines(n int) *prog {
	p := &prog{nvars: 2, noClass: true}
	var ids []int
	for i := 1; i <= n; i++ {
		ids = append(ids, i)
	}
	p.threads = append(p.threads, []op{create("go", ids...)})
	for i := 1; i <= n; i++ {
		p.threads = append(p.threads, []op{
			lock("L", 0), set("w", 0, i), nop(fmt.Sprint("local", i)), set("w", 1, i), unlock("U", 0),
		})
	}
	return p
}

// BenchmarkDPORManyGoroutines is one dpor execution (its analysis
// included) of a program of 1,000 goroutines, with a new DPOR each time,
// as a portfolio's first dpor schedule of a test is.
func BenchmarkDPORManyGoroutines(b *testing.B) {
	p := manyGoroutines(1000)
	for b.Loop() {
		d := NewDPOR(Options{})
		if !d.NewExecution() {
			b.Fatal("no execution")
		}
		p.run(d, 100000)
		d.NewExecution()
	}
}
