// Package splash2_barnes ports splash2.barnes from SCTBench: the SPLASH-2
// Barnes-Hut N-body application with SCTBench's reduced built-in input
// (8 bodies, 2 processors, 4 time steps) and the PARMACS null macros, in
// which WAIT_FOR_END expands to nothing, so main checks that all processors
// finished without waiting for them. The tree build and force computation
// are reduced to per-body updates; the synchronisation is the original's
// sequence per time step: its barriers (Barstart, Bartree, Barcom, Barload,
// Baraccel, Barpos), the cell locks taken while inserting bodies and the
// CountLock taken to add to the shared totals.
package splash2_barnes

import "sync"

const (
	nbody   = 8
	ncells  = 4 // cell locks used while inserting bodies (reduced)
	dtime   = 0.025
	tstop   = 0.075
	maxCell = nbody
)

type body struct {
	pos, vel, acc float64
	cell          int
}

type global struct {
	countLock   sync.Mutex
	ioLock      sync.Mutex
	cellLocks   [ncells]sync.Mutex
	id          int
	numFinished int

	barstart, bartree, barcom, barload, baraccel, barpos spinBarrier

	bodies [nbody]body
	cells  [maxCell]int // bodies inserted per cell
	tnow   float64
	nstep  int
	etot   float64
	mtot   float64
}

func newGlobal() *global {
	g := &global{}
	for i := range g.bodies {
		g.bodies[i].pos = float64(i) / nbody
		g.bodies[i].vel = 0.01 * float64(i%3)
	}
	return g
}

// myBodies is the block of bodies processor p owns.
func myBodies(p int) (int, int) {
	per := nbody / nprocs
	return p * per, (p + 1) * per
}

// slaveStart is one processor's whole run.
func (g *global) slaveStart() {
	g.countLock.Lock()
	myNum := g.id
	g.id++
	g.countLock.Unlock()

	// Initial set-up: find the initial accelerations.
	g.barstart.wait(nprocs)
	lo, hi := myBodies(myNum)
	for i := lo; i < hi; i++ {
		g.bodies[i].acc = -g.bodies[i].pos
	}
	g.barstart.wait(nprocs)

	tnow := 0.0
	for tnow < tstop+0.1*dtime {
		g.stepSystem(myNum)
		tnow += dtime
	}

	g.finish()
}

// stepSystem advances the system by one time step.
func (g *global) stepSystem(myNum int) {
	g.barstart.wait(nprocs)
	if myNum == 0 {
		for c := range g.cells {
			g.cells[c] = 0
		}
	}
	g.bartree.wait(nprocs)

	// Build the tree: insert this processor's bodies under the cell locks.
	lo, hi := myBodies(myNum)
	for i := lo; i < hi; i++ {
		c := int(g.bodies[i].pos*maxCell) % maxCell
		if c < 0 {
			c += maxCell
		}
		g.bodies[i].cell = c
		g.cellLocks[c%ncells].Lock()
		g.cells[c]++
		g.cellLocks[c%ncells].Unlock()
	}
	g.bartree.wait(nprocs)

	// Centre-of-mass computation.
	g.barcom.wait(nprocs)

	// Partition (costzones) and compute forces on this processor's bodies.
	g.barload.wait(nprocs)
	for i := lo; i < hi; i++ {
		g.bodies[i].acc = -g.bodies[i].pos * float64(g.cells[g.bodies[i].cell])
	}
	g.baraccel.wait(nprocs)

	// Advance positions and add to the shared totals.
	var ekin, mass float64
	for i := lo; i < hi; i++ {
		b := &g.bodies[i]
		b.vel += b.acc * dtime
		b.pos += b.vel * dtime
		ekin += 0.5 * b.vel * b.vel
		mass++
	}
	g.countLock.Lock()
	g.etot += ekin
	g.mtot += mass
	g.countLock.Unlock()
	g.barpos.wait(nprocs)
}
