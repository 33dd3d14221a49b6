// Package cs_fsbench_bad is a Go port of SCTBench's CS.fsbench_bad, a toy
// file-system benchmark: 27 threads each allocate a block for the inode
// numbered by their thread id, but there are only 26 inode locks, so thread
// 26 indexes past the end. SCTBench added the bounds assertion by hand (the
// C program silently reads out of bounds); it fails in every schedule.
package cs_fsbench_bad

import (
	"sync"
	"testing"
)

const (
	numBlocks  = 26
	numInode   = 32
	numThreads = 27
)

// fs is the shared file-system state.
type fs struct {
	locki [numBlocks]sync.Mutex // one per inode: a bug, there are numInode inodes
	inode [numInode]int
	lockb [numBlocks]sync.Mutex
	busy  [numBlocks]bool
}

// Run starts the threads with ids 0..26 and joins them.
func Run(t testing.TB) {
	f := &fs{}
	var wg sync.WaitGroup
	for tid := 0; tid < numThreads; tid++ {
		wg.Add(1)
		go func(tid int) {
			defer wg.Done()
			f.thread(t, tid)
		}(tid)
	}
	wg.Wait()
}

func (f *fs) thread(t testing.TB, tid int) {
	i := tid % numInode
	if i >= numBlocks {
		t.Errorf("thread %d: inode %d has no lock (only %d locks)", tid, i, numBlocks)
		return // the C assertion aborts here
	}
	f.locki[i].Lock()
	if f.inode[i] == 0 {
		b := (i * 2) % numBlocks
		for j := 0; j < numBlocks/2; j++ {
			f.lockb[b].Lock()
			if !f.busy[b] {
				f.busy[b] = true
				f.inode[i] = b + 1
				f.lockb[b].Unlock()
				break
			}
			f.lockb[b].Unlock()
			b = (b + 1) % numBlocks
		}
	}
	f.locki[i].Unlock()
}
