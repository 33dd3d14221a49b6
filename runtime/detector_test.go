package runtime

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gosct/gosct/internal/wire"
)

// Each happens-before edge kind comes as a pair of programs: one where the
// edge orders a write before a read in another goroutine (no schedule may
// report a race), and one where the same accesses are not ordered (some
// schedule must report one). They call the hooks as rewritten code would.
type racePair struct {
	ok, racy func(t *testing.T)
}

var racePairs = map[string]racePair{
	"copy across pages": {
		// A copy of thousands of bytes is shadowed a page at a time: the
		// bytes just outside it never race with it, the last one inside
		// does.
		ok: func(t *testing.T) {
			buf, src := make([]byte, 4096), make([]byte, 4096)
			heapBytes = buf
			done := Chan(make(chan bool))
			Go(func() { Copy(buf[9:3001], src, nil); Send(done, true) })
			Store(&buf[8], 1)
			Store(&buf[3001], 1)
			Recv(done)
			Copy(src, buf, nil)
		},
		racy: func(t *testing.T) {
			buf, src := make([]byte, 4096), make([]byte, 4096)
			heapBytes = buf
			done := Chan(make(chan bool))
			Go(func() { Copy(buf[9:3001], src, nil); Send(done, true) })
			Store(&buf[3000], 1)
			Recv(done)
		},
	},
	"copy runs": {
		// Whole pages copied are shadowed by runs (detector_runs.go): a
		// run written in one goroutine and read in another, split by a
		// word's access and merged back by a whole write, orders and
		// races as each of its words would.
		ok: func(t *testing.T) {
			buf, src := make([]byte, 8192), make([]byte, 8192)
			heapBytes = buf
			done := Chan(make(chan bool))
			Go(func() { Copy(buf, src, nil); Send(done, true) })
			Recv(done)
			Store(&buf[700], 1)
			Copy(src, buf, nil)
			Go(func() { Copy(buf, src, nil); Send(done, true) })
			Recv(done)
			_ = Load(&buf[100])
		},
		racy: func(t *testing.T) {
			buf, src := make([]byte, 8192), make([]byte, 8192)
			heapBytes = buf
			done := Chan(make(chan bool))
			Go(func() { Copy(src, buf, nil); Send(done, true) })
			Store(&buf[4000], 1)
			Recv(done)
		},
	},
	"copy runs chunks": {
		// Chunks are runs of pages: a chunk written whole in one
		// goroutine and a word of it read in another, or two copies
		// that overlap on part of one.
		ok: func(t *testing.T) {
			buf, src := make([]byte, 3*chunkBytes), make([]byte, 3*chunkBytes)
			heapBytes = buf
			done := Chan(make(chan bool))
			Go(func() { Copy(buf, src, nil); Send(done, true) })
			Recv(done)
			_ = Load(&buf[chunkBytes+8])
			Go(func() { Copy(buf[:chunkBytes+pageBytes], src, nil); Send(done, true) })
			Copy(make([]byte, 2*chunkBytes), buf[chunkBytes+pageBytes:], nil)
			Recv(done)
		},
		racy: func(t *testing.T) {
			buf, src := make([]byte, 3*chunkBytes), make([]byte, 3*chunkBytes)
			heapBytes = buf
			done := Chan(make(chan bool))
			Go(func() { Copy(buf, src, nil); Send(done, true) })
			Copy(src, buf[chunkBytes+pageBytes-8:], nil)
			Recv(done)
		},
	},
	"copy runs merged": {
		// A write that covers a split page whole merges it back: the
		// merged run still orders, and races, as the words would.
		ok: func(t *testing.T) {
			buf, src := make([]byte, 8192), make([]byte, 8192)
			heapBytes = buf
			done := Chan(make(chan bool))
			Store(&buf[100], 1)
			Copy(buf, src, nil)
			Go(func() { Store(&buf[100], 2); Copy(src, buf, nil); Send(done, true) })
			Recv(done)
			Copy(buf, src, nil)
		},
		racy: func(t *testing.T) {
			buf, src := make([]byte, 8192), make([]byte, 8192)
			heapBytes = buf
			done := Chan(make(chan bool))
			Store(&buf[100], 1)
			Go(func() { _ = Load(&buf[100]); Send(done, true) })
			Copy(buf, src, nil)
			Recv(done)
		},
	},
	"cancel": {
		// A context's cancel is a release by the goroutine that
		// cancels, and only by it.
		ok: func(t *testing.T) {
			x := 0
			ctx, cancel := WithCancel(context.Background())
			Go(func() { Store(&x, 1); cancel() })
			Recv(ctx.Done())
			_ = Load(&x)
		},
		racy: func(t *testing.T) {
			x := 0
			ctx, cancel := WithCancel(context.Background())
			done := Chan(make(chan bool))
			Go(func() { Store(&x, 1); Send(done, true) })
			Go(cancel)
			Recv(ctx.Done())
			_ = Load(&x)
			Recv(done)
		},
	},
	"cancel parent": {
		// Cancelling a parent closes its children's Done in the
		// canceller's goroutine.
		ok: func(t *testing.T) {
			x := 0
			parent, cancel := WithCancelCause(context.Background())
			child, cancelChild := WithCancel(parent)
			Go(func() { Store(&x, 1); cancel(nil) })
			Recv(child.Done())
			_ = Load(&x)
			cancelChild()
		},
		racy: func(t *testing.T) {
			x := 0
			parent, cancel := WithCancelCause(context.Background())
			child, cancelChild := WithCancel(parent)
			done := Chan(make(chan bool))
			Go(func() { Store(&x, 1); Send(done, true) })
			Go(func() { cancel(nil) })
			Recv(child.Done())
			_ = Load(&x)
			Recv(done)
			cancelChild()
		},
	},
	"pipe": {
		// A controlled pipe's Read that blocked until the Write comes
		// back ordered after the writer, and only after it.
		ok: func(t *testing.T) {
			x := 0
			r, w := Pipe()
			Go(func() { Store(&x, 1); w.Write([]byte{1}) })
			r.Read(make([]byte, 1))
			_ = Load(&x)
		},
		racy: func(t *testing.T) {
			x := 0
			r, w := Pipe()
			done := Chan(make(chan bool))
			Go(func() { Store(&x, 1); Send(done, true) })
			Go(func() { w.Close() })
			r.Read(make([]byte, 1))
			_ = Load(&x)
			Recv(done)
		},
	},
	"deadline": {
		// A deadline's expiry is a release by the timer's goroutine,
		// which starts after the WithTimeout call.
		ok: func(t *testing.T) {
			x := 0
			Store(&x, 1)
			ctx, cancel := WithTimeout(context.Background(), time.Millisecond)
			Recv(ctx.Done())
			_ = Load(&x)
			cancel()
		},
		racy: func(t *testing.T) {
			x := 0
			ctx, cancel := WithTimeout(context.Background(), time.Millisecond)
			done := Chan(make(chan bool))
			Go(func() { Store(&x, 1); Send(done, true) })
			Recv(ctx.Done())
			_ = Load(&x)
			Recv(done)
			cancel()
		},
	},
	"go": {
		ok: func(t *testing.T) {
			x := 0
			Store(&x, 1)
			done := Chan(make(chan bool))
			Go(func() { _ = Load(&x); Send(done, true) })
			Recv(done)
		},
		racy: func(t *testing.T) {
			x := 0
			done := Chan(make(chan bool))
			Go(func() { _ = Load(&x); Send(done, true) })
			Store(&x, 1)
			Recv(done)
		},
	},
	"unbuffered": {
		// The receive completes before the send does: the receiver's
		// write before its receive is ordered before the sender's read
		// after its send.
		ok: func(t *testing.T) {
			x, y := 0, 0
			ch := Chan(make(chan int))
			Go(func() { Store(&x, 1); Store(&y, 2); _ = Recv(ch) })
			Send(ch, 0)
			_ = Load(&y)
			Store(&x, 3)
		},
		racy: func(t *testing.T) {
			x := 0
			ch := Chan(make(chan int))
			Go(func() { _ = Recv(ch); Store(&x, 1) })
			Send(ch, 0)
			_ = Load(&x)
		},
	},
	"buffered": {
		// Capacity 1: the first receive happens before the second send
		// completes.
		ok: func(t *testing.T) {
			x := 0
			ch := Chan(make(chan int, 1))
			Go(func() { _ = Recv(ch); Store(&x, 1); _ = Recv(ch) })
			Send(ch, 0)
			Send(ch, 0)
			Send(ch, 0) // completes after the receiver's second receive
			_ = Load(&x)
		},
		racy: func(t *testing.T) {
			x := 0
			ch := Chan(make(chan int, 2))
			Go(func() { _ = Recv(ch); Store(&x, 1); _ = Recv(ch) })
			Send(ch, 0)
			Send(ch, 0) // a buffer slot is free: no order with the receiver
			_ = Load(&x)
		},
	},
	"close": {
		ok: func(t *testing.T) {
			x := 0
			ch := Chan(make(chan int))
			Go(func() { Store(&x, 1); Close(ch) })
			if _, ok := Recv2(ch); ok {
				t.Error("value from a closed channel")
			}
			_ = Load(&x)
		},
		racy: func(t *testing.T) {
			x := 0
			ch := Chan(make(chan int))
			Go(func() { Close(ch); Store(&x, 1) })
			Recv2(ch)
			_ = Load(&x)
		},
	},
	"select": {
		ok: func(t *testing.T) {
			x, y := 0, 0
			a, b := Chan(make(chan int)), Chan(make(chan int, 1))
			Go(func() { Store(&x, 1); Send(a, 1) })
			Go(func() { Store(&y, 2); c0 := OnSend(b, 2); Select(false, c0) })
			for i := 0; i < 2; i++ {
				c0, c1 := OnRecv(a), OnRecv(b)
				Select(false, c0, c1)
			}
			_ = Load(&x) + Load(&y)
		},
		racy: func(t *testing.T) {
			x := 0
			a := Chan(make(chan int, 1))
			Go(func() { c0 := OnSend(a, 1); Select(false, c0); Store(&x, 1) })
			c0 := OnRecv(a)
			Select(false, c0)
			_ = Load(&x)
		},
	},
	"mutex": {
		ok: func(t *testing.T) {
			var mu sync.Mutex
			x := 0
			done := Chan(make(chan bool))
			Go(func() { Lock(&mu); Store(&x, Load(&x)+1); Unlock(&mu); Send(done, true) })
			Lock(&mu)
			Store(&x, Load(&x)+1)
			Unlock(&mu)
			Recv(done)
		},
		racy: func(t *testing.T) {
			var mu sync.Mutex
			x := 0
			done := Chan(make(chan bool))
			Go(func() { Lock(&mu); Store(&x, Load(&x)+1); Unlock(&mu); Send(done, true) })
			Store(&x, Load(&x)+1)
			Recv(done)
		},
	},
	"rwmutex": {
		// RUnlock before Lock, Unlock before RLock; readers share.
		ok: func(t *testing.T) {
			var rw sync.RWMutex
			x := 0
			done := Chan(make(chan bool))
			Go(func() { RLock(&rw); _ = Load(&x); RUnlock(&rw); Send(done, true) })
			Go(func() { RLock(&rw); _ = Load(&x); RUnlock(&rw); Send(done, true) })
			RWLock(&rw)
			Store(&x, 1)
			RWUnlock(&rw)
			Recv(done)
			Recv(done)
		},
		racy: func(t *testing.T) {
			var rw sync.RWMutex
			x := 0
			done := Chan(make(chan bool))
			Go(func() { RLock(&rw); Store(&x, 1); RUnlock(&rw); Send(done, true) })
			RLock(&rw)
			_ = Load(&x)
			RUnlock(&rw)
			Recv(done)
		},
	},
	"waitgroup": {
		ok: func(t *testing.T) {
			var wg sync.WaitGroup
			x, y := 0, 0
			Add(&wg, 2)
			Go(func() { Store(&x, 1); Done(&wg) })
			Go(func() { Store(&y, 1); Done(&wg) })
			Wait(&wg)
			_ = Load(&x) + Load(&y)
		},
		racy: func(t *testing.T) {
			var wg sync.WaitGroup
			x := 0
			Add(&wg, 1)
			Go(func() { Done(&wg); Store(&x, 1) })
			Wait(&wg)
			_ = Load(&x)
		},
	},
	"waitgroupgo": {
		ok: func(t *testing.T) {
			var wg sync.WaitGroup
			x := 0
			Store(&x, 1)
			WaitGroupGo(&wg, func() { Store(&x, Load(&x)+1) })
			Wait(&wg)
			_ = Load(&x)
		},
		racy: func(t *testing.T) {
			var wg sync.WaitGroup
			x := 0
			WaitGroupGo(&wg, func() { Store(&x, 1) })
			_ = Load(&x)
			Wait(&wg)
		},
	},
	"once": {
		ok: func(t *testing.T) {
			var once sync.Once
			x := 0
			done := Chan(make(chan bool))
			get := func() int { Do(&once, func() { Store(&x, 1) }); return Load(&x) }
			Go(func() { get(); Send(done, true) })
			get()
			Recv(done)
		},
		racy: func(t *testing.T) {
			var once sync.Once
			x := 0
			done := Chan(make(chan bool))
			Go(func() { Do(&once, func() {}); Store(&x, 1); Send(done, true) })
			Do(&once, func() {})
			_ = Load(&x)
			Recv(done)
		},
	},
	"cond": {
		// The write is made before Signal, outside the lock: only the
		// Signal → Wait edge orders it.
		ok: func(t *testing.T) {
			var mu sync.Mutex
			c := sync.NewCond(&mu)
			x, ready := 0, false
			Go(func() {
				Store(&x, 1)
				Lock(&mu)
				Store(&ready, true)
				Unlock(&mu)
				Signal(c)
			})
			Lock(&mu)
			for !Load(&ready) {
				CondWait(c)
			}
			Unlock(&mu)
			_ = Load(&x)
		},
		racy: func(t *testing.T) {
			var mu sync.Mutex
			c := sync.NewCond(&mu)
			x, ready := 0, false
			Go(func() {
				Lock(&mu)
				Store(&ready, true)
				Unlock(&mu)
				Signal(c)
				Store(&x, 1)
			})
			Lock(&mu)
			for !Load(&ready) {
				CondWait(c)
			}
			Unlock(&mu)
			_ = Load(&x)
		},
	},
	"atomic": {
		ok: func(t *testing.T) {
			var flag atomic.Bool
			x := 0
			Go(func() { Store(&x, 1); Atomic(&flag); flag.Store(true) })
			if Then(Atomic(&flag), flag.Load()) {
				_ = Load(&x)
			}
		},
		racy: func(t *testing.T) {
			var flag atomic.Bool
			x := 0
			Go(func() { Atomic(&flag); flag.Store(true); Store(&x, 1) })
			if Then(Atomic(&flag), flag.Load()) {
				_ = Load(&x)
			}
		},
	},
	"syncmap": {
		ok: func(t *testing.T) {
			var m sync.Map
			x := 0
			Go(func() { Store(&x, 1); Atomic(&m); m.Store("k", 1) })
			Atomic(&m)
			if _, ok := m.Load("k"); ok {
				_ = Load(&x)
			}
		},
		racy: func(t *testing.T) {
			var m sync.Map
			x := 0
			Go(func() { Atomic(&m); m.Store("k", 1); Store(&x, 1) })
			Atomic(&m)
			if _, ok := m.Load("k"); ok {
				_ = Load(&x)
			}
		},
	},
	"afterfunc": {
		ok: func(t *testing.T) {
			x := 0
			done := Chan(make(chan bool))
			Store(&x, 1)
			AfterFunc(time.Millisecond, func() { _ = Load(&x); Send(done, true) })
			Recv(done)
		},
		racy: func(t *testing.T) {
			x := 0
			done := Chan(make(chan bool))
			AfterFunc(time.Millisecond, func() { _ = Load(&x); Send(done, true) })
			Store(&x, 1)
			Recv(done)
		},
	},
	"map": {
		ok: func(t *testing.T) {
			m := map[int]int{}
			var mu sync.Mutex
			done := Chan(make(chan bool))
			Go(func() { Lock(&mu); Write(m); m[1] = 1; Unlock(&mu); Send(done, true) })
			Lock(&mu)
			_ = Then(Read(m), m[1])
			Unlock(&mu)
			Recv(done)
		},
		racy: func(t *testing.T) {
			m := map[int]int{}
			done := Chan(make(chan bool))
			Go(func() { Write(m); m[1] = 1; Send(done, true) })
			_ = Then(Read(m), m[1])
			Recv(done)
		},
	},
}

func racePairNames() []string {
	var names []string
	for n := range racePairs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// heapBytes keeps a test's byte slice on the heap: accesses to a
// goroutine's own stack are not shadowed.
var heapBytes []byte

// The synchronized programs: no schedule reports a race, in both modes.
func TestRaceFreePrograms(t *testing.T) {
	for _, name := range racePairNames() {
		p := racePairs[name]
		t.Run(name, func(t *testing.T) {
			x := checkWith(t, "dfs", 5000, func(s *settings) { s.races = racesReport }, p.ok)
			if x.bugs != 0 || x.schedules < 1 {
				t.Fatalf("%d bugs in %d schedules", x.bugs, x.schedules)
			}
			checkWith(t, "random", 300, func(s *settings) { s.races, s.accessPoints = racesSync, false }, p.ok)
		})
	}
}

const raceProgEnv = "GOSCT_RACE_PROGRAM"

// TestVictimRace runs the racy program named by GOSCT_RACE_PROGRAM.
func TestVictimRace(t *testing.T) {
	victimOnly(t)
	Test(t, racePairs[os.Getenv(raceProgEnv)].racy)
}

// The unsynchronized programs: a race is found, in both modes, with both
// accesses named.
func TestRacyPrograms(t *testing.T) {
	skipRace(t)
	for _, name := range racePairNames() {
		t.Run(name, func(t *testing.T) {
			t.Setenv(raceProgEnv, name)
			for _, races := range []string{"report", "sync"} {
				b := wantBug(t, victim(t, "TestVictimRace", wire.Config{Strategy: "random", Races: races}), "race")
				if !strings.Contains(b.Message, "data race") || !strings.Contains(b.Report, "detector_test.go") {
					t.Errorf("%s: report %q", races, b.Report)
				}
			}
		})
	}
}

// Without --races, racy programs report nothing.
func TestRacesOff(t *testing.T) {
	skipRace(t)
	t.Setenv(raceProgEnv, "go")
	if bs := bugs(victim(t, "TestVictimRace", wire.Config{Strategy: "random", Schedules: 50})); len(bs) != 0 {
		t.Fatalf("bugs with races off: %+v", bs)
	}
}

// A race's trace replays it, and the detailed re-run names the earlier
// access's position.
func TestRaceTraceReplays(t *testing.T) {
	skipRace(t)
	for _, name := range []string{"mutex", "pipe"} {
		t.Run(name, func(t *testing.T) { raceTraceReplays(t, name) })
	}
}

func raceTraceReplays(t *testing.T, name string) {
	t.Setenv(raceProgEnv, name)
	b := wantBug(t, victim(t, "TestVictimRace", wire.Config{Strategy: "random", Races: "report"}), "race")
	for i := 0; i < 3; i++ {
		r := wantBug(t, victim(t, "TestVictimRace", wire.Config{Mode: "replay", Trace: b.Trace, Races: "report"}), "race")
		if !r.Replayed {
			t.Fatalf("not replayed: %+v", r)
		}
		if !strings.Contains(r.Message, "detector_test.go") || strings.Contains(r.Message, "position recorded in detailed runs") {
			t.Fatalf("replay does not name the earlier access: %s", r.Message)
		}
	}
}

// TestVictimRaceThenPanic has a race and, in some schedules, a panic the
// race leads to.
func TestVictimRaceThenPanic(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		n := 0
		done := Chan(make(chan bool))
		Go(func() { Store(&n, Load(&n)+1); Send(done, true) })
		Store(&n, Load(&n)+1)
		Recv(done)
		if Load(&n) != 2 {
			panic("lost update")
		}
	})
}

// In report mode a race does not end the execution: the deeper bug it
// causes is reported in the schedules where it happens.
func TestRaceDoesNotHideDeeperBug(t *testing.T) {
	skipRace(t)
	evs := victim(t, "TestVictimRaceThenPanic", wire.Config{Strategy: "dfs", Races: "report", KeepGoing: true})
	wantBug(t, evs, "race")
	wantBug(t, evs, "panic")
	// In sync mode the lost update is out of reach: the first race ends
	// the execution.
	evs = victim(t, "TestVictimRaceThenPanic", wire.Config{Strategy: "dfs", Races: "sync", KeepGoing: true})
	wantBug(t, evs, "race")
	for _, b := range bugs(evs) {
		if b.Kind != "race" {
			t.Fatalf("sync mode: %+v", b)
		}
	}
}

// The detector's state is per execution: each starts empty (the last
// one's is emptied and kept for reuse, detector_reuse.go), and many
// executions of a race-free program that touches many variables keep
// memory flat (BenchmarkExecutionRaces).
func TestRaceStateDropped(t *testing.T) {
	checkWith(t, "random", 50, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		e := active.Load()
		if n := e.race.hb.words; n != 0 {
			t.Fatalf("%d shadow words carried over into a new execution", n)
		}
		xs := make([]int, 100)
		heapInts = xs // on the heap: accesses to its own stack are skipped
		for i := range xs {
			Store(&xs[i], i)
		}
		if n := e.race.hb.words; n < 100 {
			t.Fatalf("%d shadow words for 100 variables written", n)
		}
	})
}

// Synchronization the detector cannot see (context's cancel closes its
// channel outside the model) must not produce a false race.
func TestRaceUnseenClose(t *testing.T) {
	checkWith(t, "dfs", 2000, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		x := 0
		done := Chan(make(chan bool))
		Go(func() { Store(&x, 1); cancel(); Send(done, true) })
		Recv(ctx.Done())
		_ = Load(&x)
		Recv(done)
	})
}

// Timer.Reset of an AfterFunc timer: the Reset call happens before f.
func TestRaceTimerReset(t *testing.T) {
	checkWith(t, "dfs", 2000, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		x := 0
		done := Chan(make(chan bool))
		tm := AfterFunc(time.Hour, func() { _ = Load(&x); Send(done, true) })
		TimerStop(tm)
		Store(&x, 1)
		TimerReset(tm, time.Millisecond)
		Recv(done)
	})
}

// Many goroutines reading one variable concurrently (read-shared, one
// entry per goroutine): the read state grows with the goroutines, not
// faster.
func TestRaceManyConcurrentReaders(t *testing.T) {
	checkWith(t, "random", 20, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		x := 0
		var wg sync.WaitGroup
		for i := 0; i < 200; i++ {
			Add(&wg, 1)
			Go(func() {
				_ = Load(&x)
				Done(&wg)
			})
		}
		Wait(&wg)
		e := active.Load()
		e.mu.Lock()
		v := e.race.hb.lookup(uintptr(unsafe.Pointer(&x)) &^ 7)
		e.mu.Unlock()
		if v == nil {
			t.Fatal("no shadow of x")
		}
		if n := cap(v.c.rsites); n > 2*201+8 {
			t.Fatalf("the reads of 200 goroutines keep room for %d", n)
		}
	})
}

// Goroutines started one after the other reuse each other's stacks: their
// stack variables (captured by closures that do not escape) are at the
// same addresses, and never race (singleflight's doCall).
func TestRaceStackReuse(t *testing.T) {
	if !stackBoundsOK {
		t.Skip("stack bounds unknown on this platform")
	}
	checkWith(t, "random", 200, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		for i := 0; i < 8; i++ {
			// Nothing orders one goroutine's end before the next's
			// start: the sleep only lets it run to its end.
			Go(func() {
				done := false
				func() {
					defer func() { Store(&done, true) }()
				}()
			})
			Sleep(time.Millisecond)
		}
	})
}

// heapInts makes a test's slice escape to the heap.
var heapInts []int

// A goroutine back from a wait in uncontrolled code (an HTTP client whose
// handler ran in a goroutine the server started) is ordered after what
// the goroutines did meanwhile: the synchronization went through code the
// detector cannot see, and must not produce a false race.
func TestRaceUncontrolledWait(t *testing.T) {
	calibrateGstatus()
	if !gstatusOK {
		t.Skip("no g status here: detaches wait for the timeout")
	}
	x := checkWith(t, "random", 30, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		x := 0
		ch := make(chan int) // not Chan: uncontrolled
		go func() {          // not Go: started by uncontrolled code
			Store(&x, 1)
			ch <- 1
		}()
		<-ch
		_ = Load(&x)
	})
	if x.bugs != 0 {
		t.Fatalf("%d bugs in %d schedules", x.bugs, x.schedules)
	}
}

// joinOwn is the join of every clock wherever no clock knows more of a
// goroutine than its own does (the detector's invariant): clocks made by
// forks and releases among goroutines agree.
func TestJoinOwnIsJoinAll(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := 1 + r.IntN(8)
		vcs := make([]vclock, n)
		for i := range vcs {
			vcs[i].set(i, 1)
		}
		// Random ticks and releases: j acquires i's clock.
		for step := 0; step < 30; step++ {
			i, j := r.IntN(n), r.IntN(n)
			vcs[i].set(i, vcs[i].get(i)+1)
			if i != j {
				vcs[j].join(vcs[i])
			}
		}
		var naive, own vclock
		for _, w := range vcs {
			naive.join(w)
		}
		own.joinOwn(vcs)
		for i := 0; i < n; i++ {
			if naive.get(i) != own.get(i) {
				t.Fatalf("round %d: entry %d: join of all %d, joinOwn %d", round, i, naive.get(i), own.get(i))
			}
		}
	}
}

// The detector stops in an execution past maxRaceGoroutines goroutines
// (their clocks would make every synchronization slow), and only then.
func TestDetectorStopsPastMaxGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 10,000 goroutines (the whole suite runs it)")
	}
	if raceEnabled {
		t.Skip("10,000 goroutines may exceed Go's race detector's limit on live ones")
	}
	var before, after bool
	c := &wire.Config{Mode: "explore", Strategy: "random", Schedules: 1, Seed: 1, TraceDir: t.TempDir(), Races: "report"}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.explore(func(t *testing.T) {
		done := Chan(make(chan bool))
		for i := 0; i < maxRaceGoroutines; i++ {
			if i == maxRaceGoroutines-2 {
				before = active.Load().race.on()
			}
			Go(func() { Send(done, true) })
			Recv(done)
		}
		after = active.Load().race.on()
	})
	if !before || after {
		t.Errorf("detector on before the limit %v, after it %v; want true, false", before, after)
	}
}

// pinSink makes the objects of TestDetectorKeepsWordsAlive heap objects.
var pinSink *[4]int64

// The shadow is keyed by address: within an execution, the memory of a
// variable the detector has seen must not be freed and given to another
// (whose first accesses would race with the old one's), so the detector
// keeps it alive until the execution ends.
func TestDetectorKeepsWordsAlive(t *testing.T) {
	if !stackBoundsOK {
		t.Skip("no stack bounds: the detector does not pin")
	}
	reused := -1
	c := &wire.Config{Mode: "explore", Strategy: "random", Schedules: 1, Seed: 1, TraceDir: t.TempDir(), Races: "report"}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	site := &Site{Expr: "p[0]", Pos: "pin_test.go:1"}
	x.explore(func(t *testing.T) {
		seen := map[uintptr]bool{}
		for i := 0; i < 200; i++ {
			p := new([4]int64)
			pinSink = p
			StoreAt(&p[0], 1, site)
			seen[uintptr(unsafe.Pointer(p))] = true
		}
		pinSink = nil
		runtime.GC()
		runtime.GC()
		for i := 0; i < 100000 && reused < 0; i++ {
			p := new([4]int64)
			pinSink = p
			if seen[uintptr(unsafe.Pointer(p))] {
				reused = i
			}
		}
		pinSink = nil
	})
	if reused >= 0 {
		t.Errorf("the memory of a word the detector saw was reused within the execution (allocation %d)", reused)
	}
}

// A large copy into memory the detector has not seen costs a shadow
// word per chunk, not per word (detector_runs.go); a word's access splits
// its chunk into page runs and its page into words, and a whole write
// merges the page back, leaving no cached way to the words' old shadow.
func TestRaceRuns(t *testing.T) {
	checkWith(t, "random", 3, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		const n = 2 * chunkBytes
		buf, src := chunkAligned(n), chunkAligned(n)
		heapBytes = buf
		e := active.Load()
		before := e.race.hb.words
		Copy(buf, src, nil)
		// Both slices' chunks: the copy reads one and writes the other.
		if got := e.race.hb.words - before; got > 2*n/chunkBytes+4 {
			t.Fatalf("%d shadow words for a copy of %d bytes (%d chunks each side)", got, n, n/chunkBytes)
		}
		at := uintptr(unsafe.Pointer(&buf[4096]))
		pg := func() *shadowPage {
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.race.hb.pages.get(at / pageBytes)
		}
		if pg() != nil || e.race.hb.chunks.get(at/chunkBytes) == nil {
			t.Fatal("the chunk of buf[4096] is not a run after a whole copy")
		}
		Store(&buf[4096], 1)
		if e.race.hb.chunks.get(at/chunkBytes) != nil {
			t.Fatal("a word's store did not split its chunk")
		}
		if p := pg(); p == nil || p.run != nil || p.w[(at/8)%pageWords] == nil {
			t.Fatal("a word's store did not split its page")
		}
		if p := e.race.hb.pages.get(at/pageBytes + 1); p == nil || p.run == nil {
			t.Fatal("the next page is not a run of its own once the chunk is split")
		}
		Copy(buf, src, nil)
		p := pg()
		if p.run == nil {
			t.Fatal("a whole write did not merge the page back")
		}
		for _, r := range e.race.hb.recent {
			if r.x != nil && r.w >= at&^(pageBytes-1) && r.w < at&^(pageBytes-1)+pageBytes {
				t.Fatal("recent still leads to a word of the merged page")
			}
		}
	})
}

// chunkAligned is n bytes on the heap at a chunk's start.
func chunkAligned(n int) []byte {
	b := make([]byte, n+chunkBytes)
	off := int(-uintptr(unsafe.Pointer(&b[0])) % chunkBytes)
	return b[off : off+n]
}
