// Package cb_pbzip2 is a Go port of SCTBench's CB.pbzip2-0.9.4: the parallel
// bzip2 compressor's main thread deletes the work queue's mutex (and the
// global mutexes) once the file writer has finished, while a consumer thread
// that main never joins may still lock it.
//
// Compression and file I/O are replaced by a dummy payload. C's "delete
// mutex" is modelled by marking the mutex freed; any later use panics, as
// the segfault (or Maple's "use of mutex after free") does in the original.
package cb_pbzip2

import (
	"runtime"
	"sync"
	"testing"
)

const (
	numConsumers = 2 // -p2
	numBlocks    = 1 // an 81920-byte file with -b1 (100000-byte blocks)
	queueSize    = numConsumers
)

// freeableMutex is a mutex that can be deleted: using it afterwards is a
// crash. The check sits after Lock and before Unlock, so the deletion
// cannot slip in between the check and the use.
type freeableMutex struct {
	mu    sync.Mutex
	freed bool
	name  string
}

// Lock locks m; locking a deleted mutex panics.
func (m *freeableMutex) Lock() {
	m.mu.Lock()
	m.check("lock")
}

// Unlock unlocks m; unlocking a deleted mutex panics.
func (m *freeableMutex) Unlock() {
	m.check("unlock")
	m.mu.Unlock()
}

func (m *freeableMutex) check(op string) {
	if m.freed {
		panic("pbzip2: " + op + " of freed mutex " + m.name)
	}
}

// freeableCond is a condition variable that can be deleted.
type freeableCond struct {
	c     *sync.Cond
	freed bool
	name  string
}

func newCond(m *freeableMutex, name string) *freeableCond {
	return &freeableCond{c: sync.NewCond(&m.mu), name: name}
}

// Wait waits on c; waiting on a deleted condition variable, or having it
// deleted while waiting, panics.
func (c *freeableCond) Wait() {
	c.check("wait")
	c.c.Wait()
	c.check("wait")
}

// Signal wakes one waiter; signalling a deleted condition variable panics.
func (c *freeableCond) Signal() {
	c.check("signal")
	c.c.Signal()
}

func (c *freeableCond) check(op string) {
	if c.freed {
		panic("pbzip2: " + op + " on freed condition variable " + c.name)
	}
}

// block is one block of input or output.
type block struct {
	buf      []byte
	blockNum int
}

// queue is pbzip2's bounded FIFO of input blocks.
type queue struct {
	qData       [queueSize]block
	head, tail  int
	full, empty bool
	mut         *freeableMutex
	notFull     *freeableCond
	notEmpty    *freeableCond
}

func newQueue() *queue {
	q := &queue{empty: true, mut: &freeableMutex{name: "fifo.mut"}}
	q.notFull = newCond(q.mut, "fifo.notFull")
	q.notEmpty = newCond(q.mut, "fifo.notEmpty")
	return q
}

func (q *queue) add(b block) {
	q.qData[q.tail] = b
	q.tail++
	if q.tail == queueSize {
		q.tail = 0
	}
	if q.tail == q.head {
		q.full = true
	}
	q.empty = false
}

func (q *queue) remove() block {
	b := q.qData[q.head]
	q.head++
	if q.head == queueSize {
		q.head = 0
	}
	if q.head == q.tail {
		q.empty = true
	}
	q.full = false
	return b
}

// outBuff is a slot of the output buffer, filled by a consumer and drained
// by the file writer.
type outBuff struct {
	buf  []byte
	size int
}

// pbzip2 is the program's global state.
type pbzip2 struct {
	fifo         *queue
	allDone      bool // written and read without locks, as in pbzip2
	outputBuffer []outBuff
	outMutex     *freeableMutex
	memMutex     *freeableMutex
}

// Run compresses a one-block file with two consumers and a file writer.
func Run(t testing.TB) {
	p := &pbzip2{
		fifo:         newQueue(),
		outputBuffer: make([]outBuff, numBlocks),
		outMutex:     &freeableMutex{name: "OutMutex"},
		memMutex:     &freeableMutex{name: "MemMutex"},
	}
	var consumers sync.WaitGroup
	for i := 0; i < numConsumers; i++ {
		consumers.Add(1)
		go func() {
			defer consumers.Done()
			p.consumer()
		}()
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		p.fileWriter()
	}()

	p.producer()
	<-writerDone

	// queueDelete and the deletion of the global mutexes. Nothing waits
	// for the consumers first: that is the bug.
	p.fifo.empty = true
	p.fifo.full = false
	p.fifo.head, p.fifo.tail = 0, 0
	p.fifo.mut.freed = true
	p.fifo.notFull.freed = true
	p.fifo.notEmpty.freed = true
	p.outMutex.freed = true
	p.memMutex.freed = true

	// pbzip2 never joins its consumers; the process keeps running them
	// under SCTBench's scheduler, so the test waits for them last.
	consumers.Wait()
}

// producer reads the file block by block into the queue.
func (p *pbzip2) producer() {
	for blockNum := 0; blockNum < numBlocks; blockNum++ {
		p.memMutex.Lock()
		buf := make([]byte, 16)
		p.memMutex.Unlock()
		for i := range buf {
			buf[i] = byte(blockNum + i) // "read" the block
		}

		q := p.fifo
		q.mut.Lock()
		for q.full {
			q.notFull.Wait()
		}
		q.add(block{buf: buf, blockNum: blockNum})
		q.mut.Unlock()
		q.notEmpty.Signal()
	}
	p.allDone = true
}

// consumer compresses blocks until the queue is empty and the producer is
// done.
func (p *pbzip2) consumer() {
	q := p.fifo
	for {
		q.mut.Lock()
		for q.empty {
			if p.allDone {
				q.mut.Unlock()
				return
			}
			// A one-second pthread_cond_timedwait on notEmpty: release the
			// lock, let others run, re-acquire and check again.
			q.mut.Unlock()
			runtime.Gosched()
			q.mut.Lock()
		}
		in := q.remove()
		q.mut.Unlock()
		q.notFull.Signal()

		p.memMutex.Lock()
		out := make([]byte, len(in.buf))
		p.memMutex.Unlock()
		for i, b := range in.buf {
			out[i] = b ^ 0x5a // "compress"
		}

		p.outMutex.Lock()
		p.outputBuffer[in.blockNum].buf = out
		p.outputBuffer[in.blockNum].size = len(out)
		p.outMutex.Unlock()

		p.memMutex.Lock()
		in.buf = nil // free the input block
		p.memMutex.Unlock()
	}
}

// fileWriter writes the compressed blocks out in order, polling for each.
func (p *pbzip2) fileWriter() {
	currBlock := 0
	for currBlock < numBlocks || !p.allDone {
		if currBlock >= numBlocks ||
			p.outputBuffer[currBlock].size < 1 || p.outputBuffer[currBlock].buf == nil {
			runtime.Gosched() // usleep(50000)
			continue
		}
		// "write" the block, then free it.
		p.memMutex.Lock()
		p.outputBuffer[currBlock].buf = nil
		p.memMutex.Unlock()
		currBlock++
	}
}
