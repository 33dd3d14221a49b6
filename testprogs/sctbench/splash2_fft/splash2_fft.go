// Package splash2_fft ports splash2.fft from SCTBench: the SPLASH-2 FFT
// kernel ("FFT -p2 -m2 -n4 -l4": 2 processors, 4 complex points) with the
// PARMACS null macros, in which WAIT_FOR_END expands to nothing, so main
// checks that all processors finished without waiting for them. The
// numerical work is reduced to per-processor updates of the processor's own
// rows; the synchronisation (the id lock and the 7 episodes of the one
// barrier) is the original's.
package splash2_fft

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
