// Package splash2_lu ports splash2.lu (non-contiguous blocks) from SCTBench:
// the SPLASH-2 LU kernel ("LU -p2 -n2 -b1": 2 processors, a 2x2 matrix,
// block size 1) with the PARMACS null macros, in which WAIT_FOR_END expands
// to nothing, so main checks that all processors finished without waiting
// for them. Each processor factors the blocks it owns between the
// original's barriers: two at the start of OneSolve, two per diagonal block,
// and a final one.
package splash2_lu

import "sync"

const (
	size      = 2 // n
	blockSize = 1 // b
	nblocks   = size / blockSize
)

type global struct {
	idLock      sync.Mutex
	id          int
	start       spinBarrier
	numFinished int

	a [size][size]float64
}

func newGlobal() *global {
	g := &global{}
	// The original creates the worker before initialising the matrix;
	// the first barrier orders it.
	g.a = [size][size]float64{{4, 3}, {6, 3}}
	return g
}

// owner is the processor that owns block (i, j), as in the original's
// 2-D scatter decomposition.
func owner(i, j int) int { return (i + j) % nprocs }

// slaveStart is one processor's whole run.
func (g *global) slaveStart() {
	g.idLock.Lock()
	myNum := g.id
	g.id++
	g.idLock.Unlock()

	// OneSolve.
	g.start.wait(nprocs)
	g.start.wait(nprocs)
	g.lu(myNum)
	g.start.wait(nprocs)

	g.finish()
}

// lu factors the matrix in place, one diagonal block at a time, as the
// original's lu: the owner of the diagonal block factors it; barrier; the
// owners of the perimeter blocks divide them by it; barrier; every
// processor updates the interior blocks it owns.
func (g *global) lu(myNum int) {
	for k := 0; k < nblocks; k++ {
		if owner(k, k) == myNum {
			// Factoring a 1x1 block leaves it as it is.
			_ = g.a[k][k]
		}
		g.start.wait(nprocs)
		for i := k + 1; i < nblocks; i++ {
			if owner(i, k) == myNum {
				g.a[i][k] /= g.a[k][k]
			}
		}
		g.start.wait(nprocs)
		for i := k + 1; i < nblocks; i++ {
			for j := k + 1; j < nblocks; j++ {
				if owner(i, j) == myNum {
					g.a[i][j] -= g.a[i][k] * g.a[k][j]
				}
			}
		}
	}
}
