// Package fixed is parsec.ferret (see the parent directory) with the
// end-of-input test made under done_mutex by both the load thread (after it
// sets input_end) and the output thread, so whichever comes last signals
// main. It must pass in every schedule.
package fixed

import (
	"sync"
	"testing"
)

// Parameters of the SCTBench run ("corel lsh queries 1 1 2 output.txt").
const (
	numQueries  = 1 // the query directory holds one image
	queueDepth  = 1
	stageWidth  = 2 // threads per middle stage
	numMiddle   = 4 // segment, extract, vector query, rank
	numQueues   = numMiddle + 1
	expectedOut = numQueries
)

type pipeline struct {
	queues [numQueues]*queue

	cntEnqueue int
	cntDequeue int
	inputEnd   bool
	outputEnd  bool

	doneMu sync.Mutex
	done   *sync.Cond

	results []int
}

// Run creates the stage threads in ferret's order (load; segment x2;
// extract x2; vector x2; rank x2; output), waits for the output stage's
// "done", cancels the pool and checks the output.
func Run(t testing.TB) {
	p := &pipeline{}
	for i := range p.queues {
		p.queues[i] = newQueue(queueDepth)
	}
	p.done = sync.NewCond(&p.doneMu)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.load()
	}()
	for stage := 0; stage < numMiddle; stage++ {
		for i := 0; i < stageWidth; i++ {
			in, out := p.queues[stage], p.queues[stage+1]
			wg.Add(1)
			go func() {
				defer wg.Done()
				middle(in, out)
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.output()
	}()

	p.doneMu.Lock()
	if !p.outputEnd { // an if, not a loop, as in ferret
		p.done.Wait()
	}
	for _, q := range p.queues {
		q.cancel()
	}
	p.doneMu.Unlock()
	wg.Wait()

	if len(p.results) != expectedOut {
		t.Errorf("got %d results, want %d", len(p.results), expectedOut)
	}
}

// load reads the queries (one image) into the first queue, then marks the
// end of the input.
func (p *pipeline) load() {
	for i := 0; i < numQueries; i++ {
		img := 100 + i // read and decode: thread-private
		p.cntEnqueue++
		if !p.queues[0].enqueue(img) {
			return
		}
	}
	p.doneMu.Lock()
	p.inputEnd = true
	if p.cntEnqueue == p.cntDequeue {
		p.outputEnd = true
		p.done.Signal()
	}
	p.doneMu.Unlock()
}

// middle is one thread of a middle stage: take an item, process it, pass it
// on, until cancelled.
func middle(in, out *queue) {
	for {
		v, ok := in.dequeue()
		if !ok {
			return
		}
		v = v*3 + 1 // the stage's computation: thread-private
		if !out.enqueue(v) {
			return
		}
	}
}

// output writes each ranked result and, when it has seen the end of the
// input, tells main that the run is complete.
func (p *pipeline) output() {
	for {
		v, ok := p.queues[numQueues-1].dequeue()
		if !ok {
			return
		}
		p.results = append(p.results, v)
		p.doneMu.Lock()
		p.cntDequeue++
		if p.inputEnd && p.cntEnqueue == p.cntDequeue {
			p.outputEnd = true
			p.done.Signal()
		}
		p.doneMu.Unlock()
	}
}
