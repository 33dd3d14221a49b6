// Package radbench_bug6 ports radbench.bug6 (Mozilla bug 526805, "NSPR-3")
// from SCTBench: NSPR 4.8's own read-write lock (PR_RWLock), which prefers
// writers, used recursively for reading. A reader holding the lock for
// reading asks for it again after a writer has started waiting; the reader
// waits for the writer and the writer for the reader: a deadlock.
package radbench_bug6

import "sync"

// rwLock is PR_RWLock as built into NSPR: one mutex, a condition for waiting
// readers and one for waiting writers, and counters.
type rwLock struct {
	mu        sync.Mutex
	readerQ   *sync.Cond
	writerQ   *sync.Cond
	lockCnt   int // > 0: read-held that many times; -1: write-held
	writerCnt int // waiting writers
	readerCnt int // waiting readers
}

func newRWLock() *rwLock {
	l := &rwLock{}
	l.readerQ = sync.NewCond(&l.mu)
	l.writerQ = sync.NewCond(&l.mu)
	return l
}

// rlock waits while the lock is write-held or any writer is waiting:
// writers are preferred, which is what a recursive reader trips over.
func (l *rwLock) rlock() {
	l.mu.Lock()
	for l.lockCnt < 0 || l.writerCnt > 0 {
		l.readerCnt++
		l.readerQ.Wait()
		l.readerCnt--
	}
	l.lockCnt++
	l.mu.Unlock()
}

func (l *rwLock) wlock() {
	l.mu.Lock()
	for l.lockCnt != 0 {
		l.writerCnt++
		l.writerQ.Wait()
		l.writerCnt--
	}
	l.lockCnt = -1
	l.mu.Unlock()
}

func (l *rwLock) unlock() {
	l.mu.Lock()
	if l.lockCnt > 0 {
		l.lockCnt--
		if l.lockCnt == 0 && l.writerCnt > 0 {
			l.writerQ.Signal()
		}
	} else {
		l.lockCnt = 0
		if l.writerCnt > 0 {
			l.writerQ.Signal()
		} else if l.readerCnt > 0 {
			l.readerQ.Broadcast()
		}
	}
	l.mu.Unlock()
}

// Run creates the lock, starts the reader and then the writer, and joins the
// reader and then the writer.
func Run() {
	l := newRWLock()
	var reader, writer sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		l.rlock()
		l.rlock() // recursive read lock
		l.unlock()
		l.unlock()
	}()
	writer.Add(1)
	go func() {
		defer writer.Done()
		l.wlock()
		l.unlock()
	}()
	reader.Wait()
	writer.Wait()
}
