package runtime

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/gosct/gosct/strategies"
)

// Benchmarks of the cost of control (docs/performance.md). They run
// executions directly, without the subtest per schedule that Test adds.

// runExec runs body as one execution under s and returns it.
func runExec(s strategies.Strategy, body func()) *execution {
	set := defaultSettings
	// A benchmark is one long execution: not a livelock, not too long.
	set.maxSteps, set.fairAfter, set.livelockWindow = 1<<62, 1<<62, 1<<62
	return runWith(s, set, body)
}

// otherFirst always switches to another goroutine when it can.
type otherFirst struct{}

func (otherFirst) NewExecution() bool { return true }
func (otherFirst) Next(p *strategies.Point) int {
	for i, c := range p.Choices {
		if c != p.Current {
			return i
		}
	}
	return 0
}

// sameFirst keeps the current goroutine running when it can.
type sameFirst struct{}

func (sameFirst) NewExecution() bool { return true }
func (sameFirst) Next(p *strategies.Point) int {
	if i := p.Index(p.Current); i >= 0 {
		return i
	}
	return 0
}

// BenchmarkPointNoSwitch is the cost of a scheduling point at which the
// running goroutine goes on.
func BenchmarkPointNoSwitch(b *testing.B) {
	runExec(sameFirst{}, func() {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Gosched()
		}
		b.StopTimer()
	})
}

// BenchmarkPointSwitch is the cost of a scheduling point that switches to
// another goroutine (two goroutines alternate).
func BenchmarkPointSwitch(b *testing.B) {
	runExec(otherFirst{}, func() {
		done := Chan(make(chan bool))
		Go(func() {
			for i := 0; i < b.N/2; i++ {
				Gosched()
			}
			Send(done, true)
		})
		b.ResetTimer()
		for i := 0; i < b.N/2; i++ {
			Gosched()
		}
		Recv(done)
		b.StopTimer()
	})
}

// BenchmarkGoSwitch is the Go runtime's own goroutine switch, for
// comparison: a ping-pong over unbuffered channels, two switches per round.
func BenchmarkGoSwitch(b *testing.B) {
	ping, pong := make(chan bool), make(chan bool)
	go func() {
		for range ping {
			pong <- true
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N/2; i++ {
		ping <- true
		<-pong
	}
	close(ping)
}

// program3x30 is a test of 3 goroutines and about 30 scheduling points:
// two workers each send 5 values to a collector through an unbuffered
// channel and take a shared counter's mutex-free turn with Gosched.
func program3x30() {
	c := Chan(make(chan int))
	done := Chan(make(chan bool))
	for w := 0; w < 2; w++ {
		Go(func() {
			for i := 0; i < 5; i++ {
				Send(c, i)
				Gosched()
			}
			Send(done, true)
		})
	}
	sum := 0
	for i := 0; i < 10; i++ {
		sum += Recv(c)
	}
	Recv(done)
	Recv(done)
	if sum != 20 {
		panic(fmt.Sprint("sum ", sum))
	}
}

// BenchmarkExecution3x30 is one whole controlled execution of program3x30
// under the random strategy, including the set-up and teardown between
// executions.
func BenchmarkExecution3x30(b *testing.B) {
	s, _ := strategies.New("random", strategies.Options{Seed: 1})
	steps := 0
	for i := 0; i < b.N; i++ {
		e := runExec(s, program3x30)
		steps += e.steps
		if e.bug != nil {
			b.Fatal(e.bug.report())
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "points/exec")
}

// BenchmarkUncontrolled3x30 is the same program with every hook passing
// through: the uncontrolled rate.
func BenchmarkUncontrolled3x30(b *testing.B) {
	for i := 0; i < b.N; i++ {
		program3x30()
	}
}

// BenchmarkDecisionBlocked measures a decision while many goroutines are
// blocked: its cost must not grow with their number.
func BenchmarkDecisionBlocked(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			runExec(otherFirst{}, func() {
				block := Chan(make(chan bool))
				for i := 0; i < n; i++ {
					Go(func() { Recv(block) })
				}
				for i := 0; i < n; i++ {
					Gosched() // otherFirst runs another goroutine, until it blocks
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					Gosched()
				}
				b.StopTimer()
				Close(block)
			})
		})
	}
}

// BenchmarkMemoryAcrossExecutions runs program3x30 many times in one
// process and reports the live heap and goroutine count after 1,000
// executions and at the end: they must stay flat (b.N of 100000 is the
// figure of docs/performance.md).
func BenchmarkMemoryAcrossExecutions(b *testing.B) {
	s, _ := strategies.New("random", strategies.Options{Seed: 1})
	var heap1k uint64
	var g1k int
	for i := 0; i < b.N; i++ {
		runExec(s, program3x30)
		if i == 999 {
			heap1k, g1k = liveHeap(), goruntime.NumGoroutine()
		}
	}
	if b.N >= 1000 {
		b.ReportMetric(float64(heap1k), "heap-after-1k-B")
		b.ReportMetric(float64(g1k), "goroutines-after-1k")
	}
	b.ReportMetric(float64(liveHeap()), "heap-at-end-B")
	b.ReportMetric(float64(goruntime.NumGoroutine()), "goroutines-at-end")
}

func liveHeap() uint64 {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkMapRange is the cost of one rewritten range over a map of n
// int keys inside an execution (ordered and shuffled: runtime/maps.go),
// against Go's own range and the rewritten range outside an execution.
func BenchmarkMapRange(b *testing.B) {
	for _, n := range []int{8, 100, 1000} {
		m := make(map[int]int, n)
		for i := 0; i < n; i++ {
			m[i*7] = i
		}
		sink := 0
		b.Run(fmt.Sprintf("go/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for k, v := range m {
					sink += k + v
				}
			}
		})
		b.Run(fmt.Sprintf("passthrough/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				it := MapRange(m)
				for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
					sink += k + v
				}
			}
		})
		b.Run(fmt.Sprintf("controlled/%d", n), func(b *testing.B) {
			runExec(sameFirst{}, func() {
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					it := MapRange(m)
					for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
						sink += k + v
					}
				}
			})
		})
		_ = sink
	}
}

// BenchmarkInputs is what the sources of nondeterminism add to every
// execution: its inputs (a seed, the clock, the goroutine count) made and
// given to it.
func BenchmarkInputs(b *testing.B) {
	e := newExecution(sameFirst{}, defaultSettings, nil)
	for i := 0; i < b.N; i++ {
		e.in.set(freshInputs(1, i, false, time.Now()), e.set.free, &e.clock)
	}
}

// BenchmarkExecutionSystematic is BenchmarkExecution3x30 under the
// systematic strategies (a new search whenever one is exhausted): dpor's
// cost per execution includes describing every step and analysing the
// execution's races at its end.
func BenchmarkExecutionSystematic(b *testing.B) {
	for _, name := range []string{"dfs", "dpor"} {
		b.Run(name, func(b *testing.B) {
			s, _ := strategies.New(name, strategies.Options{})
			searches := 1
			for i := 0; i < b.N; i++ {
				if st, ok := s.(strategies.Status); ok && st.Exhausted() {
					s, _ = strategies.New(name, strategies.Options{})
					searches++
				}
				if e := runExec(s, program3x30); e.bug != nil {
					b.Fatal(e.bug.report())
				}
			}
			b.ReportMetric(float64(b.N)/float64(searches), "execs/search")
		})
	}
}
