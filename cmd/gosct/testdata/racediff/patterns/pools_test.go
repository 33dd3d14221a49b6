package patterns

import (
	"sync"
	"testing"
)

type buffer struct{ n int }

// A buffer written after it went back to the pool races with the
// goroutine that got it.
func TestPoolWriteAfterPut(t *testing.T) {
	var pool sync.Pool
	b := &buffer{}
	race(func() {
		pool.Put(b)
		b.n = 1
	}, func() {
		if got, ok := pool.Get().(*buffer); ok {
			_ = got.n
		}
	})
}

// A Put orders nothing but the object put: a Get that got nothing does
// not see what the putter wrote before.
func TestPoolOrdersOnlyItsObject(t *testing.T) {
	var pool sync.Pool
	x := 0
	race(func() {
		x = 1
		pool.Put(&buffer{})
	}, func() {
		_ = pool.Get()
		pool.Put(&buffer{})
		_ = x
	})
}

type entry struct{ hits int }

// A value loaded from a sync.Map is shared memory like any other.
func TestSyncMapValue(t *testing.T) {
	var m sync.Map
	e := &entry{}
	m.Store("k", e)
	race(func() {
		v, _ := m.Load("k")
		v.(*entry).hits++
	}, func() {
		e.hits++
	})
}

// Different keys of a sync.Map: Go's memory model orders a Load only
// after the Store of its own key.
func TestSyncMapOtherKey(t *testing.T) {
	var m sync.Map
	x := 0
	race(func() {
		x = 1
		m.Store("a", 1)
	}, func() {
		m.Load("b")
		_ = x
	})
}
