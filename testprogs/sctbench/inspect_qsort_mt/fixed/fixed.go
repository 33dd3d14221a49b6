// Package fixed is inspect.qsort_mt (see the parent directory) with
// allocateThread taking the target slot's mutex before it marks the slot as
// working, so the target cannot see `work` before its range is written. It
// must pass in every schedule.
package fixed

import (
	"sync"
	"testing"
)

// Parameters of the SCTBench run: "-n 32 -f 4 -h 2 -v".
const (
	nthreads = 2
	forkelem = 4
)

// input is what rand()%32 yields for the 32 elements with glibc's default
// seed, as the original generates them.
var input = []uint32{
	7, 6, 9, 19, 17, 31, 10, 12, 9, 13, 26, 11, 18, 27, 3, 6,
	28, 2, 20, 24, 27, 8, 7, 13, 22, 26, 14, 3, 19, 31, 9, 26,
}

type threadState int

const (
	tsIdle threadState = iota
	tsWork
	tsTerm
)

// slot is one pool thread's mailbox ("struct qsort"): its state and the range
// (a, n) it is asked to sort, guarded by its own mutex and condition.
type slot struct {
	st    threadState
	c     *common
	a     []uint32
	n     int
	mtxSt sync.Mutex
	cond  *sync.Cond
}

// common is the state that all pool threads share.
type common struct {
	nthreads    int
	idlethreads int
	forkelem    int
	pool        []*slot
	mtxAl       sync.Mutex // guards allocation of idle threads
}

// Run sorts a copy of the input with the thread pool and verifies the result.
func Run(t testing.TB) {
	a := make([]uint32, len(input))
	copy(a, input)
	qsortMT(a)
	for i := 1; i < len(a); i++ {
		if a[i-1] > a[i] {
			t.Errorf("failed to verify sorted list: a[%d]=%d > a[%d]=%d in %v", i-1, a[i-1], i, a[i], a)
			return
		}
	}
}

func qsortMT(a []uint32) {
	c := &common{}
	c.pool = make([]*slot, nthreads)
	var wg sync.WaitGroup
	wg.Add(nthreads)
	for i := range c.pool {
		qs := &slot{st: tsIdle, c: c}
		qs.cond = sync.NewCond(&qs.mtxSt)
		c.pool[i] = qs
		go func() {
			defer wg.Done()
			qsortThread(qs)
		}()
	}
	// The threads already run; only now are the common fields filled in, as
	// in the original.
	c.forkelem = forkelem
	c.nthreads = nthreads
	c.idlethreads = nthreads

	// Hand out the first batch of work.
	qs := c.pool[0]
	qs.mtxSt.Lock()
	qs.a = a
	qs.n = len(a)
	qs.st = tsWork
	c.idlethreads--
	qs.cond.Signal()
	qs.mtxSt.Unlock()

	wg.Wait()
}

// allocateThread finds an idle pool thread and returns its slot locked; the
// slot becomes working only under its own mutex.
func allocateThread(c *common) *slot {
	c.mtxAl.Lock()
	for i := 0; i < c.nthreads; i++ {
		qs := c.pool[i]
		if qs.st == tsIdle {
			c.idlethreads--
			qs.mtxSt.Lock()
			qs.st = tsWork
			c.mtxAl.Unlock()
			return qs
		}
	}
	c.mtxAl.Unlock()
	return nil
}

func qsortThread(qs *slot) {
	c := qs.c
	for {
		qs.mtxSt.Lock()
		for qs.st == tsIdle {
			qs.cond.Wait()
		}
		qs.mtxSt.Unlock()
		if qs.st == tsTerm {
			return
		}
		if qs.st != tsWork {
			panic("qsort_mt: slot neither working nor terminated")
		}

		qsortAlgo(qs)

		c.mtxAl.Lock()
		qs.st = tsIdle
		c.idlethreads++
		if c.idlethreads == c.nthreads {
			// Everybody is idle: the sort is done; tell the others to exit.
			for i := 0; i < c.nthreads; i++ {
				qs2 := c.pool[i]
				if qs2 == qs {
					continue
				}
				qs2.mtxSt.Lock()
				qs2.st = tsTerm
				qs2.cond.Signal()
				qs2.mtxSt.Unlock()
			}
			c.mtxAl.Unlock()
			return
		}
		c.mtxAl.Unlock()
	}
}

// qsortAlgo sorts the slot's range, farming the left part of a partition out
// to an idle thread when both parts are big enough.
func qsortAlgo(qs *slot) {
	a, n := qs.a, qs.n
	c := qs.c
	sortRange(c, a, n)
}

// sortRange is Bentley and McIlroy's quicksort (qsort(3)) on a[:n]; the
// element accesses are thread-private: each range belongs to one thread.
func sortRange(c *common, a []uint32, n int) {
	for {
		if n < 7 {
			insertionSort(a[:n])
			return
		}
		pm := n / 2
		if n > 7 {
			pl, pn := 0, n-1
			if n > 40 {
				d := n / 8
				pl = med3(a, pl, pl+d, pl+2*d)
				pm = med3(a, pm-d, pm, pm+d)
				pn = med3(a, pn-2*d, pn-d, pn)
			}
			pm = med3(a, pl, pm, pn)
		}
		a[0], a[pm] = a[pm], a[0]
		pa, pb := 1, 1
		pc, pd := n-1, n-1
		for {
			for pb <= pc && a[pb] <= a[0] {
				if a[pb] == a[0] {
					a[pa], a[pb] = a[pb], a[pa]
					pa++
				}
				pb++
			}
			for pb <= pc && a[pc] >= a[0] {
				if a[pc] == a[0] {
					a[pc], a[pd] = a[pd], a[pc]
					pd--
				}
				pc--
			}
			if pb > pc {
				break
			}
			a[pb], a[pc] = a[pc], a[pb]
			pb++
			pc--
		}
		r := min(pa, pb-pa)
		vecswap(a, 0, pb-r, r)
		r = min(pd-pc, n-pd-1)
		vecswap(a, pb, n-r, r)

		nl := pb - pa
		nr := pd - pc
		if nl > c.forkelem && nr > c.forkelem {
			if qs2 := allocateThread(c); qs2 != nil {
				// qs2 is returned with its mutex held.
				qs2.a = a
				qs2.n = nl
				qs2.cond.Signal()
				qs2.mtxSt.Unlock()
			} else {
				sortRange(c, a, nl)
			}
		} else if nl > 0 {
			sortRange(c, a, nl)
		}
		if nr <= 0 {
			return
		}
		a = a[n-nr:]
		n = nr
	}
}

func med3(a []uint32, i, j, k int) int {
	if a[i] < a[j] {
		if a[j] < a[k] {
			return j
		}
		if a[i] < a[k] {
			return k
		}
		return i
	}
	if a[j] > a[k] {
		return j
	}
	if a[i] < a[k] {
		return i
	}
	return k
}

func vecswap(a []uint32, i, j, n int) {
	for ; n > 0; n-- {
		a[i], a[j] = a[j], a[i]
		i++
		j++
	}
}

func insertionSort(a []uint32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j-1] > a[j]; j-- {
			a[j-1], a[j] = a[j], a[j-1]
		}
	}
}
