// Package fixed is CS.fsbench_bad (see the parent directory) with the bug
// fixed: there is one inode lock per inode, so every thread id has one. Main
// checks after the joins that no two inodes were given the same block.
package fixed

import (
	"sync"
	"testing"
)

const (
	numBlocks  = 26
	numInode   = 32
	numThreads = 27
)

type fs struct {
	locki [numInode]sync.Mutex
	inode [numInode]int
	lockb [numBlocks]sync.Mutex
	busy  [numBlocks]bool
}

// Run starts the threads with ids 0..26, joins them and checks the blocks.
func Run(t testing.TB) {
	f := &fs{}
	var wg sync.WaitGroup
	for tid := 0; tid < numThreads; tid++ {
		wg.Add(1)
		go func(tid int) {
			defer wg.Done()
			f.thread(tid)
		}(tid)
	}
	wg.Wait()
	owner := make(map[int]int)
	for i, b := range f.inode {
		if b == 0 {
			continue
		}
		if j, dup := owner[b]; dup {
			t.Errorf("inodes %d and %d both got block %d", j, i, b-1)
		}
		owner[b] = i
	}
}

func (f *fs) thread(tid int) {
	i := tid % numInode
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
