package runtime

import "time"

// Goroutines a test leaves behind waiting for a timer (a cache janitor
// selecting on a ticker and a stop channel nobody closes, a retry loop
// sleeping) are not blocked for ever: in real Go the timer fires and they
// go on, and go test does not fail for them. Reporting them as leaks made
// gosct cry wolf on most mature libraries with background goroutines
// (patrickmn/go-cache, cenkalti/backoff, alitto/pond, hashicorp/golang-lru
// expirable caches), so only goroutines that nothing can ever wake are
// leaks: blocked on channels, locks or wait groups with no pending timer
// among what they wait for. One exception: a goroutine whose only way on is
// a ticker (`for range ticker.C`, a receive outside any select) wakes for
// ever and never gets anywhere else: it is a leak. A select with a ticker
// and a stop channel is a daemon waiting to be stopped, not one.
// Tools that want every stray goroutine reported have go.uber.org/goleak.

// withoutTimerWaiters drops from gs the goroutines that a pending timer can
// still wake: sleepers, and receivers (in a select too) on the channel of
// an armed timer or ticker. Lock held.
//
//go:norace
func (e *execution) withoutTimerWaiters(gs []*goroutine) []*goroutine {
	if len(gs) == 0 || len(e.clock.heap) == 0 {
		return gs
	}
	wakeable := make(map[*goroutine]bool)
	for _, t := range e.clock.heap {
		switch t.kind {
		case tkSleep:
			wakeable[t.g] = true
		case tkChan:
			cs := e.chans.get(chanKey((<-chan time.Time)(t.ch)))
			if cs == nil {
				continue
			}
			for _, w := range cs.recvq {
				if w.live() && (t.period == 0 || w.sel != nil) {
					wakeable[w.g] = true
				}
			}
		}
	}
	out := gs[:0:0]
	for _, g := range gs {
		if !wakeable[g] {
			out = append(out, g)
		}
	}
	return out
}
