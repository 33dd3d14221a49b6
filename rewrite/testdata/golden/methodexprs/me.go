package methodexprs

import (
	"sync"
	"sync/atomic"
)

// E embeds a mutex: (*E).Lock reaches it through the field.
type E struct {
	sync.Mutex
	n int
}

// P embeds a pointer to one: E.Lock on a value is in its method set.
type P struct{ *sync.RWMutex }

func apply(f func(*sync.Mutex), mu *sync.Mutex) { f(mu) }

func applyRW(f func(*sync.RWMutex), rw *sync.RWMutex) { f(rw) }

func Exprs(mu *sync.Mutex, rw *sync.RWMutex, wg *sync.WaitGroup, once *sync.Once, e *E, p P, l sync.Locker) {
	(*sync.Mutex).Lock(mu)
	defer (*sync.Mutex).Unlock(mu)
	apply((*sync.Mutex).Lock, mu)
	applyRW((*sync.RWMutex).RLock, rw)
	applyRW((*sync.RWMutex).RUnlock, rw)
	wait := (*sync.WaitGroup).Wait
	add := (*sync.WaitGroup).Add
	add(wg, 1)
	(*sync.WaitGroup).Done(wg)
	wait(wg)
	(*sync.Once).Do(once, func() {})
	do := (*sync.Once).Do
	do(once, func() {})
	lockE := (*E).Lock
	lockE(e)
	(*E).Unlock(e)
	P.Lock(p)
	P.Unlock(p)
	ok := (*sync.Mutex).TryLock
	_ = ok(mu)
	sync.Locker.Lock(l)
	unlock := sync.Locker.Unlock
	unlock(l)
	go (*sync.WaitGroup).Done(wg)
}

type C struct {
	n atomic.Int64
	m sync.Map
}

func Atomics(c *C, v *atomic.Int64, raw *int32) int64 {
	add := (*atomic.Int64).Add
	add(v, 1)
	load := (*atomic.Int64).Load
	(*atomic.Int64).Store(v, 3)
	defer (*atomic.Int64).Add(v, -1)
	store := (*sync.Map).Store
	store(&c.m, "k", 1)
	x, _ := (*sync.Map).Load(&c.m, "k")
	_ = x
	inc := c.n.Add
	inc(2)
	get := c.m.Load
	_, _ = get("k")
	addRaw := atomic.AddInt32
	addRaw(raw, 1)
	loadRaw := atomic.LoadInt32
	_ = loadRaw(raw)
	return load(v)
}
