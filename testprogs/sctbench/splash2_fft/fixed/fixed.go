// Package fixed is splash2.fft (see the parent directory) with WAIT_FOR_END
// implemented (main joins the worker before its check) and the final
// increment of numFinished made under a lock. It must pass in every schedule.
package fixed

import "sync"

const (
	m    = 2
	n    = 1 << m // complex points
	rows = 1 << (m / 2)
)

type global struct {
	idLock      sync.Mutex
	id          int
	start       spinBarrier
	numFinished int
	finishLock  sync.Mutex

	x, trans, umain [2 * n]float64
}

func newGlobal() *global {
	g := &global{}
	for i := 0; i < n; i++ {
		g.x[2*i] = float64(i)
	}
	return g
}

// slaveStart is one processor's whole run.
func (g *global) slaveStart() {
	g.idLock.Lock()
	myNum := g.id
	g.id++
	g.idLock.Unlock()

	g.start.wait(nprocs)

	// Copy the roots of unity (private) and touch this processor's rows.
	var upriv [2 * n]float64
	copy(upriv[:], g.umain[:])
	g.touchRows(myNum)
	g.start.wait(nprocs)

	// The 1-D six-step FFT.
	g.start.wait(nprocs)
	g.transposeRows(myNum, upriv[:]) // transpose
	g.start.wait(nprocs)
	g.transposeRows(myNum, upriv[:]) // column FFTs, transpose
	g.start.wait(nprocs)
	g.transposeRows(myNum, upriv[:]) // column FFTs, transpose
	g.start.wait(nprocs)
	g.start.wait(nprocs) // after the (skipped) copy back

	g.finish()
}

// myRows is the block of rows that processor p owns.
func myRows(p int) (int, int) {
	per := rows / nprocs
	if per == 0 {
		per = 1
	}
	lo := p * per
	hi := lo + per
	if p == nprocs-1 || hi > rows {
		hi = rows
	}
	if lo > rows {
		lo = rows
	}
	return lo, hi
}

func (g *global) touchRows(p int) {
	lo, hi := myRows(p)
	for r := lo; r < hi; r++ {
		for c := 0; c < rows; c++ {
			g.trans[2*(r*rows+c)] = 0
		}
	}
}

func (g *global) transposeRows(p int, u []float64) {
	lo, hi := myRows(p)
	for r := lo; r < hi; r++ {
		for c := 0; c < rows; c++ {
			i := 2 * (r*rows + c)
			g.trans[i] = g.x[i] + u[i]
		}
	}
}
