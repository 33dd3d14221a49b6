// Package fixed is parsec.streamcluster2 (see the parent directory) with all
// three of the original's FIX_BUG switches on. It must pass in every
// schedule.
package fixed

import (
	"fmt"
	"math"
	"strings"
	"sync"
)

// The variant: which of the original's FIX_BUG_n macros are defined, and the
// thread count it was run with.
const (
	fixBug1 = true
	fixBug2 = true
	fixBug3 = true
	nproc   = 3
)

// Parameters of the SCTBench run: "2 5 1 10 10 5 none output.txt 3".
const (
	kmin        = 2
	kmax        = 5
	dim         = 1
	numPoints   = 10
	chunkSize   = 10
	clusterSize = 5
	seed        = 1
	sp          = 1 // passes of speedy (SP)
	iterFactor  = 3 // ITER
	cacheLine   = 32
)

type point struct {
	weight float64
	coord  []float64
	assign int
	cost   float64
}

type points struct {
	num int
	p   []point
}

// rand48 is lrand48/srand48, so that the generated input and pid 0's random
// draws follow the original's sequence.
type rand48 struct{ x uint64 }

func (r *rand48) seed(s int64) { r.x = uint64(s)<<16 | 0x330e }

func (r *rand48) next() int64 {
	r.x = (0x5deece66d*r.x + 0xb) & (1<<48 - 1)
	return int64(r.x >> 17)
}

// barrier is pthread_barrier_t: a blocking barrier for n threads.
type barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
	count int
	gen   int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	g := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.cond.Broadcast()
	} else {
		for g == b.gen {
			b.cond.Wait()
		}
	}
	b.mu.Unlock()
}

// sc holds what are file-level and function-level statics in the original.
type sc struct {
	rng *rand48

	isCenter         []bool
	centerTable      []int
	switchMembership []bool

	// statics of pkmedian
	k           int
	feasible    []int
	numfeasible int
	hizs        []float64

	// statics of pspeedy
	totalcost float64
	open      bool
	costs     []float64
	i         int
	mu        sync.Mutex
	cond      *sync.Cond

	// statics of pgain
	workMem                  []float64
	glCostOfOpeningX         float64
	glNumberOfCentersToClose int
}

func newSC() *sc {
	s := &sc{rng: new(rand48)}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *sc) lrand() float64 { return float64(s.rng.next()) / float64(math.MaxInt32) }

// dist is the squared distance of two points. The original passes the
// points by value, copying their cost and assignment too, which other
// threads write meanwhile: a data race that is not the bug; here it reads
// their coordinates only.
func dist(a, b *point) float64 {
	r := 0.0
	for i := 0; i < dim; i++ {
		d := a.coord[i] - b.coord[i]
		r += d * d
	}
	return r
}

func block(num, pid int) (int, int) {
	bsize := num / nproc
	k1 := bsize * pid
	k2 := k1 + bsize
	if pid == nproc-1 {
		k2 = num
	}
	return k1, k2
}

func (s *sc) shuffle(pts *points) {
	for i := 0; i < pts.num-1; i++ {
		j := int(s.rng.next()%int64(pts.num-i)) + i
		pts.p[i], pts.p[j] = pts.p[j], pts.p[i]
	}
}

func (s *sc) intshuffle(a []int) {
	for i := range a {
		j := int(s.rng.next()%int64(len(a)-i)) + i
		a[i], a[j] = a[j], a[i]
	}
}

// pspeedy opens centres greedily: pid 0 walks the points and decides at
// random, from point i's current cost, whether to open it; the other threads
// wait for each opening and update their own blocks.
func (s *sc) pspeedy(pts *points, z float64, kcenter *int, pid int, b *barrier) float64 {
	b.wait()
	k1, k2 := block(pts.num, pid)

	// Create a centre at the first point, assign everything to it.
	for k := k1; k < k2; k++ {
		pts.p[k].cost = dist(&pts.p[k], &pts.p[0]) * pts.p[k].weight
		pts.p[k].assign = 0
	}
	if pid == 0 {
		*kcenter = 1
		s.costs = make([]float64, nproc)
	}
	if fixBug2 {
		// Without it (bug 2), pid 0 may read costs of points in other
		// threads' blocks before those threads have recomputed them.
		b.wait()
	}

	if pid != 0 {
		// Not the master: wait until a centre is opened.
		for {
			s.mu.Lock()
			for !s.open {
				s.cond.Wait()
			}
			s.mu.Unlock()
			if s.i >= pts.num {
				break
			}
			for k := k1; k < k2; k++ {
				d := dist(&pts.p[s.i], &pts.p[k])
				if d*pts.p[k].weight < pts.p[k].cost {
					pts.p[k].cost = d * pts.p[k].weight
					pts.p[k].assign = s.i
				}
			}
			b.wait()
			if fixBug1 {
				// Without it (bug 1), the worker does one barrier per
				// opened centre and the master two; if the master clears
				// open first, the worker waits on the condition and the
				// master at its second barrier.
				b.wait()
			}
		}
	} else {
		// The master decides whether to open each point.
		for s.i = 1; s.i < pts.num; s.i++ {
			toOpen := s.lrand() < pts.p[s.i].cost/z
			if toOpen {
				*kcenter++
				s.mu.Lock()
				s.open = true
				s.mu.Unlock()
				s.cond.Broadcast()
				for k := k1; k < k2; k++ {
					d := dist(&pts.p[s.i], &pts.p[k])
					if d*pts.p[k].weight < pts.p[k].cost {
						pts.p[k].cost = d * pts.p[k].weight
						pts.p[k].assign = s.i
					}
				}
				b.wait()
				s.open = false
				b.wait()
			}
		}
		s.mu.Lock()
		s.open = true
		s.mu.Unlock()
		s.cond.Broadcast()
	}
	b.wait()
	// Every thread clears open in the original: concurrent writes of the
	// same value, a data race that is not the bug; here the master does,
	// and the barrier below orders it before the next pspeedy.
	if pid == 0 {
		s.open = false
	}
	mytotal := 0.0
	for k := k1; k < k2; k++ {
		mytotal += pts.p[k].cost
	}
	s.costs[pid] = mytotal
	b.wait()
	// Aggregate the costs of each thread.
	if pid == 0 {
		s.totalcost = z * float64(*kcenter)
		for i := 0; i < nproc; i++ {
			s.totalcost += s.costs[i]
		}
		s.costs = nil
	}
	b.wait()
	return s.totalcost
}

// pgain evaluates opening a centre at point x and does it if that saves
// cost. Each thread handles its block; per-thread partial results meet in
// workMem.
func (s *sc) pgain(x int, pts *points, z float64, numcenters *int, pid int, b *barrier) float64 {
	b.wait()
	k1, k2 := block(pts.num, pid)
	numberOfCentersToClose := 0

	// Each thread takes a block of workMem, a multiple of a cache line.
	stride := *numcenters + 2
	cl := cacheLine / 8
	if stride%cl != 0 {
		stride = cl * (stride/cl + 1)
	}
	K := stride - 2
	costOfOpeningX := 0.0

	if pid == 0 {
		s.workMem = make([]float64, stride*(nproc+1))
		s.glCostOfOpeningX = 0
		s.glNumberOfCentersToClose = 0
	}
	b.wait()

	// Index the centres of this block.
	count := 0
	for i := k1; i < k2; i++ {
		if s.isCenter[i] {
			s.centerTable[i] = count
			count++
		}
	}
	s.workMem[pid*stride] = float64(count)
	b.wait()

	if pid == 0 {
		accum := 0
		for p := 0; p < nproc; p++ {
			tmp := int(s.workMem[p*stride])
			s.workMem[p*stride] = float64(accum)
			accum += tmp
		}
	}
	b.wait()

	for i := k1; i < k2; i++ {
		if s.isCenter[i] {
			s.centerTable[i] += int(s.workMem[pid*stride])
		}
	}
	// Clear the working memory.
	for i := k1; i < k2; i++ {
		s.switchMembership[i] = false
	}
	for i := 0; i < stride; i++ {
		s.workMem[pid*stride+i] = 0
	}
	if pid == 0 {
		for i := 0; i < stride; i++ {
			s.workMem[nproc*stride+i] = 0
		}
	}
	b.wait()

	lower := pid * stride     // this thread's "lower" fields
	glLower := nproc * stride // the global ones
	for i := k1; i < k2; i++ {
		xCost := dist(&pts.p[i], &pts.p[x]) * pts.p[i].weight
		currentCost := pts.p[i].cost
		if xCost < currentCost {
			// Point i would save cost just by switching to x.
			s.switchMembership[i] = true
			costOfOpeningX += xCost - currentCost
		} else {
			// What i's current median would save by moving to x.
			assign := pts.p[i].assign
			s.workMem[lower+s.centerTable[assign]] += currentCost - xCost
		}
	}
	b.wait()

	// The cost of opening x; negative means we open it.
	for i := k1; i < k2; i++ {
		if s.isCenter[i] {
			low := z
			for p := 0; p < nproc; p++ {
				low += s.workMem[s.centerTable[i]+p*stride]
			}
			s.workMem[glLower+s.centerTable[i]] = low
			if low > 0 {
				// If we open x, we close i.
				numberOfCentersToClose++
				costOfOpeningX -= low
			}
		}
	}
	s.workMem[pid*stride+K] = float64(numberOfCentersToClose)
	s.workMem[pid*stride+K+1] = costOfOpeningX
	b.wait()

	if pid == 0 {
		s.glCostOfOpeningX = z
		for p := 0; p < nproc; p++ {
			s.glNumberOfCentersToClose += int(s.workMem[p*stride+K])
			s.glCostOfOpeningX += s.workMem[p*stride+K+1]
		}
	}
	b.wait()

	if s.glCostOfOpeningX < 0 {
		// Opening x saves cost: do it.
		for i := k1; i < k2; i++ {
			closeCenter := s.workMem[glLower+s.centerTable[pts.p[i].assign]] > 0
			if s.switchMembership[i] || closeCenter {
				pts.p[i].cost = pts.p[i].weight * dist(&pts.p[i], &pts.p[x])
				pts.p[i].assign = x
			}
		}
		for i := k1; i < k2; i++ {
			if s.isCenter[i] && s.workMem[glLower+s.centerTable[i]] > 0 {
				s.isCenter[i] = false
			}
		}
		if x >= k1 && x < k2 {
			s.isCenter[x] = true
		}
		if pid == 0 {
			*numcenters = *numcenters + 1 - s.glNumberOfCentersToClose
		}
	} else if pid == 0 {
		s.glCostOfOpeningX = 0 // the value we return
	}
	b.wait()

	if pid == 0 {
		s.workMem = nil
	}
	return -s.glCostOfOpeningX
}

// pFL runs facility-location passes over the feasible centres until a pass
// improves the cost by less than e.
func (s *sc) pFL(pts *points, z float64, k *int, cost float64, iter int, e float64, pid int, b *barrier) float64 {
	b.wait()
	change := cost
	for change/cost > e {
		change = 0
		// Randomise the order in which centres are considered.
		if pid == 0 {
			s.intshuffle(s.feasible)
		}
		b.wait()
		for i := 0; i < iter; i++ {
			x := i % s.numfeasible
			change += s.pgain(s.feasible[x], pts, z, k, pid, b)
		}
		cost -= change
		b.wait()
	}
	return cost
}

// selectFeasibleFast picks the candidate centres, at random by weight.
func (s *sc) selectFeasibleFast(pts *points) {
	numfeasible := pts.num
	if float64(numfeasible) > iterFactor*kmin*math.Log(kmin) {
		numfeasible = int(iterFactor * kmin * math.Log(kmin))
	}
	s.feasible = make([]int, numfeasible)
	s.numfeasible = numfeasible
	if numfeasible == pts.num {
		for i := range s.feasible {
			s.feasible[i] = i
		}
		return
	}
	accumweight := make([]float64, pts.num)
	accumweight[0] = pts.p[0].weight
	for i := 1; i < pts.num; i++ {
		accumweight[i] = accumweight[i-1] + pts.p[i].weight
	}
	totalweight := accumweight[pts.num-1]
	for i := 0; i < numfeasible; i++ {
		w := s.lrand() * totalweight
		if accumweight[0] > w {
			s.feasible[i] = 0
			continue
		}
		l, r := 0, pts.num-1
		for l+1 < r {
			k := (l + r) / 2
			if accumweight[k] > w {
				r = k
			} else {
				l = k
			}
		}
		s.feasible[i] = r
	}
}

// pkmedian is one thread's part of a local search for between kmin and kmax
// medians.
func (s *sc) pkmedian(pts *points, pid int, b *barrier) float64 {
	if pid == 0 {
		s.hizs = make([]float64, nproc)
	}
	hiz, loz := 0.0, 0.0
	k1, k2 := block(pts.num, pid)
	b.wait()

	myhiz := 0.0
	for kk := k1; kk < k2; kk++ {
		myhiz += dist(&pts.p[kk], &pts.p[0]) * pts.p[kk].weight
	}
	s.hizs[pid] = myhiz
	b.wait()

	for i := 0; i < nproc; i++ {
		hiz += s.hizs[i]
	}
	if fixBug3 {
		// Without it (bug 3), pid 0 can drop hizs in the early-return path
		// below while another thread is still summing it.
		b.wait()
	}

	z := (hiz + loz) / 2
	// More centres than points: every point is its own centre.
	if pts.num <= kmax {
		for kk := k1; kk < k2; kk++ {
			pts.p[kk].assign = kk
			pts.p[kk].cost = 0
		}
		if pid == 0 {
			s.hizs = nil // SCTBench's edit: NULL instead of free
		}
		return 0
	}

	if pid == 0 {
		s.shuffle(pts)
	}
	cost := s.pspeedy(pts, z, &s.k, pid, b)

	// Give speedy sp chances to get at least kmin/2 facilities.
	i := 0
	for s.k < kmin && i < sp {
		cost = s.pspeedy(pts, z, &s.k, pid, b)
		i++
	}
	// Still not enough facilities: assume z is too high.
	for s.k < kmin {
		if i >= sp {
			hiz = z
			z = (hiz + loz) / 2
			i = 0
		}
		if pid == 0 {
			s.shuffle(pts)
		}
		cost = s.pspeedy(pts, z, &s.k, pid, b)
		i++
	}

	// Designate some points as feasible centres.
	if pid == 0 {
		s.selectFeasibleFast(pts)
		for i := 0; i < pts.num; i++ {
			s.isCenter[pts.p[i].assign] = true
		}
	}
	b.wait()

	iter := int(iterFactor * kmax * math.Log(kmax))
	for {
		// A rough estimate first.
		cost = s.pFL(pts, z, &s.k, cost, iter, 0.1, pid, b)
		// If the number of centres looks good, a more accurate one.
		if (float64(s.k) <= 1.1*kmax && float64(s.k) >= 0.9*kmin) ||
			(s.k <= kmax+2 && s.k >= kmin-2) {
			cost = s.pFL(pts, z, &s.k, cost, iter, 0.001, pid, b)
		}
		if s.k > kmax {
			// Facilities too cheap.
			loz = z
			z = (hiz + loz) / 2
			cost += (z - loz) * float64(s.k)
		}
		if s.k < kmin {
			// Facilities too expensive.
			hiz = z
			z = (hiz + loz) / 2
			cost += (z - hiz) * float64(s.k)
		}
		if (s.k <= kmax && s.k >= kmin) || loz >= 0.999*hiz {
			break
		}
		b.wait()
	}
	if pid == 0 {
		s.feasible = nil
	}
	return cost
}

// localSearch runs pkmedian on nproc new threads and joins them.
func (s *sc) localSearch(pts *points) {
	b := newBarrier(nproc)
	var wg sync.WaitGroup
	wg.Add(nproc)
	for pid := 0; pid < nproc; pid++ {
		id := pid
		go func() {
			defer wg.Done()
			s.pkmedian(pts, id, b)
		}()
	}
	wg.Wait()
}

// contcenters moves each centre to the weighted mean of its points.
func contcenters(pts *points) {
	for i := 0; i < pts.num; i++ {
		a := pts.p[i].assign
		if a != i {
			relweight := pts.p[a].weight + pts.p[i].weight
			relweight = pts.p[i].weight / relweight
			for ii := 0; ii < dim; ii++ {
				pts.p[a].coord[ii] *= 1 - relweight
				pts.p[a].coord[ii] += pts.p[i].coord[ii] * relweight
			}
			pts.p[a].weight += pts.p[i].weight
		}
	}
}

// copycenters appends the medians of pts to centers.
func copycenters(pts, centers *points, centerIDs []int, offset int) {
	isAMedian := make([]bool, pts.num)
	for i := 0; i < pts.num; i++ {
		isAMedian[pts.p[i].assign] = true
	}
	k := centers.num
	for i := 0; i < pts.num; i++ {
		if isAMedian[i] {
			copy(centers.p[k].coord, pts.p[i].coord)
			centers.p[k].weight = pts.p[i].weight
			centerIDs[k] = i + offset
			k++
		}
	}
	centers.num = k
}

// Run clusters the generated stream and returns what the original writes to
// output.txt.
func Run() string {
	s := newSC()
	s.rng.seed(seed)

	pts := &points{p: make([]point, chunkSize)}
	for i := range pts.p {
		pts.p[i].coord = make([]float64, dim)
	}
	centers := &points{p: make([]point, clusterSize)}
	for i := range centers.p {
		centers.p[i].coord = make([]float64, dim)
	}
	centerIDs := make([]int, clusterSize*dim)

	// One chunk holds the whole stream of numPoints generated points.
	pts.num = numPoints
	for i := 0; i < numPoints; i++ {
		for d := 0; d < dim; d++ {
			pts.p[i].coord[d] = s.lrand()
		}
		pts.p[i].weight = 1
	}
	s.switchMembership = make([]bool, pts.num)
	s.isCenter = make([]bool, pts.num)
	s.centerTable = make([]int, pts.num)
	s.localSearch(pts)
	contcenters(pts)
	if s.k+centers.num > clusterSize {
		panic(fmt.Sprintf("streamcluster: %d centres do not fit in %d", s.k+centers.num, clusterSize))
	}
	copycenters(pts, centers, centerIDs, 0)

	// Finally cluster all the temporary centres.
	s.switchMembership = make([]bool, centers.num)
	s.isCenter = make([]bool, centers.num)
	s.centerTable = make([]int, centers.num)
	s.localSearch(centers)
	contcenters(centers)
	return outcenterIDs(centers, centerIDs)
}

func outcenterIDs(centers *points, centerIDs []int) string {
	var out strings.Builder
	isAMedian := make([]bool, centers.num)
	for i := 0; i < centers.num; i++ {
		isAMedian[centers.p[i].assign] = true
	}
	for i := 0; i < centers.num; i++ {
		if isAMedian[i] {
			fmt.Fprintf(&out, "%d\n%f\n", centerIDs[i], centers.p[i].weight)
			for k := 0; k < dim; k++ {
				fmt.Fprintf(&out, "%f ", centers.p[i].coord[k])
			}
			out.WriteString("\n\n")
		}
	}
	return out.String()
}
