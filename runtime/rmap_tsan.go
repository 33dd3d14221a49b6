//go:build race

package runtime

import "unsafe"

// rmap is a map the runtime's goroutines share. Go's maps report every
// access to the race detector from inside Go's runtime, where //go:norace
// does not reach, so under -race the runtime's state cannot live in them:
// this is an open-addressing table with linear probing over keys of 8
// bytes (pointers and 64-bit integers: every key the runtime uses),
// compiled without race instrumentation. Entries are never deleted.
type rmap[K comparable, V any] struct {
	keys []K
	vals []V
	used []bool
	n    int
}

//go:norace
func rmapHash[K comparable](k K) uint64 {
	if unsafe.Sizeof(k) != 8 {
		panic("gosct: rmap key is not 8 bytes")
	}
	h := *(*uint64)(unsafe.Pointer(&k))
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

//go:norace
func (r *rmap[K, V]) get(k K) V {
	var zero V
	if r.n == 0 {
		return zero
	}
	mask := uint64(len(r.keys) - 1)
	for i := rmapHash(k) & mask; ; i = (i + 1) & mask {
		if !r.used[i] {
			return zero
		}
		if r.keys[i] == k {
			return r.vals[i]
		}
	}
}

//go:norace
func (r *rmap[K, V]) put(k K, v V) {
	if 2*(r.n+1) > len(r.keys) {
		r.grow()
	}
	mask := uint64(len(r.keys) - 1)
	for i := rmapHash(k) & mask; ; i = (i + 1) & mask {
		if !r.used[i] {
			r.used[i], r.keys[i], r.vals[i] = true, k, v
			r.n++
			return
		}
		if r.keys[i] == k {
			r.vals[i] = v
			return
		}
	}
}

//go:norace
func (r *rmap[K, V]) grow() {
	size := 2 * len(r.keys)
	if size < 16 {
		size = 16
	}
	old := *r
	*r = rmap[K, V]{keys: make([]K, size), vals: make([]V, size), used: make([]bool, size)}
	for i := 0; i < len(old.keys); i++ {
		if old.used[i] {
			r.put(old.keys[i], old.vals[i])
		}
	}
}

//go:norace
func (r *rmap[K, V]) len() int { return r.n }

// clear empties r, keeping its memory.
//
//go:norace
func (r *rmap[K, V]) clear() {
	var zk K
	var zv V
	for i := range r.used {
		r.used[i], r.keys[i], r.vals[i] = false, zk, zv
	}
	r.n = 0
}

// each calls f for every entry.
//
//go:norace
func (r *rmap[K, V]) each(f func(K, V)) {
	for i := range r.used {
		if r.used[i] {
			f(r.keys[i], r.vals[i])
		}
	}
}
