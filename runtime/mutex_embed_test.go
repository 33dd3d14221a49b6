package runtime

import (
	"sync"
	"testing"
)

type embedsMutex struct {
	n int
	sync.Mutex
}

type embedsDeep struct {
	x int
	*embedsRW
}

type embedsRW struct {
	y int
	sync.RWMutex
}

type declaresLock struct {
	sync.Mutex
	locked bool
}

func (d *declaresLock) Lock()   { d.locked = true }
func (d *declaresLock) Unlock() { d.locked = false }

func TestClassifyEmbedded(t *testing.T) {
	var a embedsMutex
	d := embedsDeep{embedsRW: &embedsRW{}}
	var own declaresLock
	cases := []struct {
		l    sync.Locker
		kind lockerKind
		p    any
	}{
		{&a, lkMutex, &a.Mutex},
		{&d, lkRW, &d.RWMutex},
		{&own, lkOther, nil},
		{lockerFunc{&a.Mutex}, lkOther, nil},
	}
	for i, c := range cases {
		k, p := classify(c.l)
		if k != c.kind || (c.p != nil && p != dataPtr(c.p)) {
			t.Errorf("case %d (%T): kind %d ptr %p, want %d %p", i, c.l, k, p, c.kind, c.p)
		}
	}
}

// A struct embedding a mutex, locked directly (as the rewriter emits) and
// through a Cond that has the struct as its Locker: one model mutex.
func TestCondOnEmbeddedMutex(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		q := &embedsMutex{}
		c := sync.NewCond(q)
		Go(func() {
			Lock(&q.Mutex)
			q.n = 5
			Signal(c)
			Unlock(&q.Mutex)
		})
		Lock(&q.Mutex)
		for q.n == 0 {
			CondWait(c)
		}
		n := q.n
		Unlock(&q.Mutex)
		return itoa(n)
	}), "5")
}
