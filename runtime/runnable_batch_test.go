package runtime

import (
	"strings"
	"sync"
	"testing"
)

// Readying and blocking a mutex's waiters in one pass chooses as one at a
// time does: the same schedules, seed for seed, with more waiters than
// batchMin.
func TestBatchReadyLikeOneAtATime(t *testing.T) {
	run := func(min int) string {
		old := batchMin
		batchMin = min
		defer func() { batchMin = old }()
		var runs []string
		check(t, "random", 50, func(t *testing.T) {
			var mu sync.Mutex
			order := ""
			done := Chan(make(chan bool))
			for i := 0; i < 3*batchMinDefault; i++ {
				Go(func() {
					for k := 0; k < 2; k++ {
						Lock(&mu)
						order += string(rune('a' + i))
						Unlock(&mu)
					}
					Send(done, true)
				})
			}
			for i := 0; i < 3*batchMinDefault; i++ {
				Recv(done)
			}
			runs = append(runs, order)
		})
		return strings.Join(runs, "\n")
	}
	batched, single := run(batchMinDefault), run(1<<30)
	if batched != single {
		t.Fatalf("batched:\n%s\none at a time:\n%s", batched, single)
	}
	if strings.Count(batched, "\n") != 49 {
		t.Fatalf("%d schedules, want 50", strings.Count(batched, "\n")+1)
	}
}

func TestMergeByID(t *testing.T) {
	ids := func(r []*goroutine) string {
		var b strings.Builder
		for _, g := range r {
			b.WriteString(itoa(g.id) + " ")
		}
		return b.String()
	}
	var r []*goroutine
	for _, id := range []int{1, 4, 9, 12, 7, 3, 15, 0, 10, 2} {
		r = append(r, &goroutine{id: id})
	}
	mergeByID(r, 4) // 1 4 9 12 in order, then the rest
	if got, want := ids(r), "0 1 2 3 4 7 9 10 12 15 "; got != want {
		t.Fatalf("mergeByID: %s, want %s", got, want)
	}
}
