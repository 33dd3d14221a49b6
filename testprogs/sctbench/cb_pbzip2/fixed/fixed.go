// Package fixed is CB.pbzip2-0.9.4 (see the parent directory) with the bug
// fixed: main joins the consumers before deleting the queue's mutex and the
// global mutexes, and the flags the original reads without locks are read
// under the queue's and the output buffer's mutexes.
package fixed

import (
	"runtime"
	"sync"
	"testing"
)

const (
	numConsumers = 2
	numBlocks    = 1
	queueSize    = numConsumers
)

// freeableMutex is a mutex that can be deleted: using it afterwards panics.
type freeableMutex struct {
	mu    sync.Mutex
	freed bool
	name  string
}

// Lock locks m; locking a deleted mutex panics.
func (m *freeableMutex) Lock() {
	m.mu.Lock()
	if m.freed {
		panic("pbzip2: lock of freed mutex " + m.name)
	}
}

// Unlock unlocks m; unlocking a deleted mutex panics.
func (m *freeableMutex) Unlock() {
	if m.freed {
		panic("pbzip2: unlock of freed mutex " + m.name)
	}
	m.mu.Unlock()
}

// free deletes the mutex; it must be unlocked and unused from now on.
func (m *freeableMutex) free() {
	m.mu.Lock()
	m.freed = true
	m.mu.Unlock()
}

type block struct {
	buf      []byte
	blockNum int
}

type queue struct {
	qData       [queueSize]block
	head, tail  int
	full, empty bool
	mut         *freeableMutex
	notFull     *sync.Cond
}

func (q *queue) add(b block) {
	q.qData[q.tail] = b
	q.tail = (q.tail + 1) % queueSize
	q.full = q.tail == q.head
	q.empty = false
}

func (q *queue) remove() block {
	b := q.qData[q.head]
	q.head = (q.head + 1) % queueSize
	q.empty = q.head == q.tail
	q.full = false
	return b
}

type outBuff struct {
	buf  []byte
	size int
}

type pbzip2 struct {
	fifo         *queue
	allDone      bool // guarded by fifo.mut
	outputBuffer []outBuff
	outMutex     *freeableMutex
	memMutex     *freeableMutex
}

// Run compresses a one-block file with two consumers and a file writer; a
// use of a deleted mutex panics, so t has nothing to report.
func Run(t testing.TB) {
	q := &queue{empty: true, mut: &freeableMutex{name: "fifo.mut"}}
	q.notFull = sync.NewCond(&q.mut.mu)
	p := &pbzip2{
		fifo:         q,
		outputBuffer: make([]outBuff, numBlocks),
		outMutex:     &freeableMutex{name: "OutMutex"},
		memMutex:     &freeableMutex{name: "MemMutex"},
	}
	var consumers sync.WaitGroup
	for i := 0; i < numConsumers; i++ {
		consumers.Add(1)
		go func() { defer consumers.Done(); p.consumer() }()
	}
	writerDone := make(chan struct{})
	go func() { defer close(writerDone); p.fileWriter() }()

	p.producer()
	<-writerDone
	consumers.Wait() // the fix: nobody uses the mutexes any more

	q.mut.free()
	p.outMutex.free()
	p.memMutex.free()
}

func (p *pbzip2) producer() {
	q := p.fifo
	for blockNum := 0; blockNum < numBlocks; blockNum++ {
		p.memMutex.Lock()
		buf := make([]byte, 16)
		p.memMutex.Unlock()
		q.mut.Lock()
		for q.full {
			q.notFull.Wait()
		}
		q.add(block{buf: buf, blockNum: blockNum})
		q.mut.Unlock()
	}
	q.mut.Lock()
	p.allDone = true
	q.mut.Unlock()
}

func (p *pbzip2) consumer() {
	q := p.fifo
	for {
		q.mut.Lock()
		for q.empty {
			if p.allDone {
				q.mut.Unlock()
				return
			}
			q.mut.Unlock()
			runtime.Gosched() // the timed wait
			q.mut.Lock()
		}
		in := q.remove()
		q.mut.Unlock()
		q.notFull.Signal()

		p.memMutex.Lock()
		out := make([]byte, len(in.buf))
		p.memMutex.Unlock()
		for i, b := range in.buf {
			out[i] = b ^ 0x5a
		}
		p.outMutex.Lock()
		p.outputBuffer[in.blockNum] = outBuff{buf: out, size: len(out)}
		p.outMutex.Unlock()
	}
}

// fileWriter writes the blocks out in order.
func (p *pbzip2) fileWriter() {
	for currBlock := 0; currBlock < numBlocks; {
		p.outMutex.Lock()
		ready := p.outputBuffer[currBlock].size > 0
		if ready {
			p.outputBuffer[currBlock].buf = nil
		}
		p.outMutex.Unlock()
		if !ready {
			runtime.Gosched() // usleep(50000)
			continue
		}
		currBlock++
	}
}
