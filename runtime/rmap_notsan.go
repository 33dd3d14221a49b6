//go:build !race

package runtime

// rmap is a map the runtime's goroutines share. Without -race it is a Go
// map; under -race, a table Go's race detector does not see
// (rmap_tsan.go).
type rmap[K comparable, V any] struct{ m map[K]V }

//go:norace
func (r *rmap[K, V]) get(k K) V { return r.m[k] }

//go:norace
func (r *rmap[K, V]) put(k K, v V) {
	if r.m == nil {
		r.m = make(map[K]V)
	}
	r.m[k] = v
}

//go:norace
func (r *rmap[K, V]) len() int { return len(r.m) }

// clear empties r, keeping its memory.
//
//go:norace
func (r *rmap[K, V]) clear() { clear(r.m) }

// each calls f for every entry.
//
//go:norace
func (r *rmap[K, V]) each(f func(K, V)) {
	for k, v := range r.m {
		f(k, v)
	}
}
