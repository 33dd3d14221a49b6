package runtime

import "math/bits"

// Readying and blocking many goroutines at once. An unlock makes every
// waiter of the mutex runnable and the next lock blocks them all again
// (the model's rule: whoever locks first wins); one at a time, each
// costs a shift of the runnable set, the square of the waiters per
// hand-off: with a few hundred goroutines on one lock, most of an
// execution's time. In one pass the cost is linear.

// batchMin is the number of goroutines from which one pass over the
// runnable set is cheaper than a shift per goroutine.
var batchMin = batchMinDefault

const batchMinDefault = 8

// unreadyAll does what unready(w, what) does for each w of ws. Lock held.
//
//go:norace
func (e *execution) unreadyAll(ws []*goroutine, what string) {
	if len(ws) < batchMin {
		for _, w := range ws {
			e.unready(w, what)
		}
		return
	}
	cur := e.cur.Load()
	n := 0
	for _, w := range ws {
		if w.state == gRunnable && cur != w {
			// setState(w, gBlocked) but for the removal from
			// e.runnable, done below for all of them: a goroutine is
			// in e.runnable exactly when it is gRunnable.
			w.state = gBlocked
			n++
		}
		w.waitObj = what
	}
	if n == 0 {
		return
	}
	k := 0
	for _, g := range e.runnable {
		if g.state == gRunnable {
			e.runnable[k] = g
			k++
		}
	}
	for i := k; i < len(e.runnable); i++ {
		e.runnable[i] = nil
	}
	e.runnable = e.runnable[:k]
}

// readyAll does what ready(w) does for each w of ws. Lock held.
//
//go:norace
func (e *execution) readyAll(ws []*goroutine) {
	if len(ws) < batchMin {
		for _, w := range ws {
			e.ready(w)
		}
		return
	}
	start := len(e.runnable)
	for _, w := range ws {
		if w.state != gBlocked {
			continue
		}
		// setRunnable(w) for a goroutine not in e.runnable, appended
		// there and put in order below.
		w.poll, w.watching = nil, false
		if w.eager {
			w.eager = false
			e.eagerPollers--
		}
		w.state = gRunnable
		w.chosenAt = e.steps
		e.runnable = append(e.runnable, w)
	}
	if len(e.runnable) == start {
		return
	}
	e.lastProgress = e.steps
	if k := len(e.runnable) - start; len(e.gs) <= k*bits.Len(uint(k)) {
		// Fewer goroutines in all than a sort of the new ones costs:
		// the runnable ones, in id order, are those of e.gs.
		r := e.runnable[:0]
		for _, g := range e.gs {
			if g.state == gRunnable {
				r = append(r, g)
			}
		}
		e.runnable = r
		return
	}
	mergeByID(e.runnable, start)
}

// mergeByID orders r by goroutine id, r[:start] being in order already.
//
//go:norace
func mergeByID(r []*goroutine, start int) {
	tail := make([]*goroutine, len(r)-start)
	for i := range tail {
		tail[i] = r[start+i]
	}
	heapSortByID(tail)
	i, j := start-1, len(tail)-1
	for k := len(r) - 1; j >= 0; k-- {
		if i >= 0 && r[i].id > tail[j].id {
			r[k] = r[i]
			i--
		} else {
			r[k] = tail[j]
			j--
		}
	}
}

// heapSortByID orders s by goroutine id, in place: sort.Slice's less
// would be a closure the race detector sees (see slices.go).
//
//go:norace
func heapSortByID(s []*goroutine) {
	n := len(s)
	for i := n/2 - 1; i >= 0; i-- {
		siftDownByID(s, i, n)
	}
	for end := n - 1; end > 0; end-- {
		s[0], s[end] = s[end], s[0]
		siftDownByID(s, 0, end)
	}
}

//go:norace
func siftDownByID(s []*goroutine, root, n int) {
	for {
		c := 2*root + 1
		if c >= n {
			return
		}
		if c+1 < n && s[c+1].id > s[c].id {
			c++
		}
		if s[root].id >= s[c].id {
			return
		}
		s[root], s[c] = s[c], s[root]
		root = c
	}
}
