// Package fixed is radbench.bug6 (see the parent directory) with a reader
// that already holds the lock for reading not waiting for waiting writers (a
// re-entrant read lock), so the recursive read cannot deadlock. It must pass
// in every schedule.
package fixed

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
//
// held is how many read locks the caller already holds: such a reader only
// waits for an active writer, never for waiting ones.
func (l *rwLock) rlock(held int) {
	l.mu.Lock()
	for l.lockCnt < 0 || (held == 0 && l.writerCnt > 0) {
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
		l.rlock(0)
		l.rlock(1) // recursive read lock
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
