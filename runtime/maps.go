package runtime

import (
	"cmp"
	"reflect"
	"slices"
	"unsafe"
)

// Map iteration order. Go randomizes it for every range statement, so a
// test whose schedule depends on it (locking accounts in map order,
// waking subscribers in map order) would replay some other order. The
// rewriter turns
//
//	for k, v := range m { body }
//
// into a loop over gosct.MapRange(m), whose Next produces the entries in
// an order that follows the execution: the keys are put in their canonical
// order (by value) and shuffled with a seed of the execution's own (each
// range statement run gets the next one), so the same inputs give the same
// orders and executions with other inputs see other orders. A map of at
// most permLimit entries is shuffled by value decisions instead (rand.go's
// smallPerm): the strategy picks its order, and a systematic one tries
// them all. Go's
// semantics are kept: the range expression is evaluated once, an entry
// deleted before it is reached is not produced, one added during the
// iteration is not (Go may or may not produce it), and a value is read when
// its entry is reached.
//
// Keys that have no order the runtime can reproduce (pointers, channels,
// interfaces holding them, structs or arrays with such fields) are
// produced in Go's order: the execution is then marked uncontrolled and the
// range noted as an "unordered map" source. Outside an execution, and with
// the maps control off, the order is Go's.

// MapIter iterates over a map for a rewritten range statement.
type MapIter[K comparable, V any] struct {
	m    map[K]V
	keys []K
	i    int
	// nan holds the entries whose key is not equal to itself (a float
	// NaN): they cannot be looked up, so their values are taken when the
	// keys are.
	nan []mapEntry[K, V]
}

type mapEntry[K comparable, V any] struct {
	k K
	v V
}

// MapRange starts the iteration over m of a rewritten range statement.
//
//go:norace
func MapRange[M ~map[K]V, K comparable, V any](m M) MapIter[K, V] {
	it := MapIter[K, V]{m: m}
	if len(m) == 0 {
		if raceEnabled {
			// Go's detector sees a range read the map even when it is
			// empty (a delete and a range race): let it see this one.
			for range m {
			}
		}
		return it
	}
	it.keys = make([]K, 0, len(m))
	for k, v := range m {
		if k != k {
			it.nan = append(it.nan, mapEntry[K, V]{k, v})
			continue
		}
		it.keys = append(it.keys, k)
	}
	if len(m) < 2 {
		return it
	}
	e, me := enter()
	if e == nil {
		return it
	}
	free := e.set.free&ctlMaps != 0
	if free && !e.set.detailed {
		e.noteDrawn(ctlMaps)
		return it
	}
	var goOrder []K
	if free {
		goOrder = slices.Clone(it.keys)
	}
	ordered := sortKeys(it.keys)
	e.mu.Lock()
	if !ordered {
		if !free {
			e.noteUncontrolled("unordered map", "range over a map with "+reflect.TypeFor[K]().String()+" keys", callerPos())
		}
		e.mu.Unlock()
		return it
	}
	if free {
		e.noteDrawn(ctlMaps)
		// Go's order, noted as the ranks of its keys in canonical
		// order: a run with another order reads another value.
		e.in.observe(len(e.trail), "map order", "range over map", orderHash(it.keys, goOrder), false)
		e.mu.Unlock()
		it.keys = goOrder
		return it
	}
	e.in.mapRanges++
	seed := e.in.subSeed(e.in.mapRanges)
	if len(it.keys) <= permLimit {
		// A small map's order is a decision, as rand.Perm's is: a
		// systematic search tries every order (two batches locking
		// the same two accounts in map order deadlock in one of
		// them), and the trace records the order chosen.
		e.mu.Unlock()
		perm := smallPerm(e, me, len(it.keys), "map order")
		keys := slices.Clone(it.keys)
		for i, p := range perm {
			it.keys[i] = keys[p]
		}
		return it
	}
	e.noteDrawn(ctlMaps) // an order of the seed's, not a decision
	if !e.set.detailed {
		e.mu.Unlock()
		shuffleSeeded(it.keys, seed)
		return it
	}
	canonical := slices.Clone(it.keys)
	shuffleSeeded(it.keys, seed)
	e.in.observe(len(e.trail), "map order", "range over map", orderHash(canonical, it.keys), true)
	e.mu.Unlock()
	return it
}

// Next returns the next entry; ok is false at the end.
//
//go:norace
func (it *MapIter[K, V]) Next() (k K, v V, ok bool) {
	for it.i < len(it.keys) {
		k = it.keys[it.i]
		it.i++
		if v, ok = it.m[k]; ok {
			return k, v, true
		}
	}
	if len(it.nan) > 0 && len(it.m) > 0 {
		// NaN keys come last; they can only have been deleted by clear.
		en := it.nan[0]
		it.nan = it.nan[1:]
		return en.k, en.v, true
	}
	return k, v, false
}

// shuffleSeeded is a Fisher-Yates shuffle drawing from splitmix64 seeded
// with seed.
//
//go:norace
func shuffleSeeded[K any](keys []K, seed uint64) {
	s := seed
	for i := len(keys) - 1; i > 0; i-- {
		s += 0x9e3779b97f4a7c15
		j := int(mix64(s) % uint64(i+1))
		keys[i], keys[j] = keys[j], keys[i]
	}
}

// orderHash is the value hash of an order of keys, given in canonical
// order: the sequence of the canonical ranks of order.
//
//go:norace
func orderHash[K comparable](canonical, order []K) uint64 {
	rank := make(map[K]int, len(canonical))
	for i, k := range canonical {
		rank[k] = i
	}
	h := uint64(len(order))
	for _, k := range order {
		h = h*1099511628211 ^ uint64(rank[k])
	}
	return hashUint(h)
}

// sortKeys puts keys in canonical order (by value); false, leaving them
// as they were, when K's values have no order that is the same in every
// run (pointers, channels, and what holds them).
//
//go:norace
func sortKeys[K comparable](keys []K) bool {
	p := unsafe.Pointer(unsafe.SliceData(keys))
	n := len(keys)
	switch reflect.TypeFor[K]().Kind() {
	case reflect.String:
		slices.Sort(unsafe.Slice((*string)(p), n))
	case reflect.Int:
		slices.Sort(unsafe.Slice((*int)(p), n))
	case reflect.Int8:
		slices.Sort(unsafe.Slice((*int8)(p), n))
	case reflect.Int16:
		slices.Sort(unsafe.Slice((*int16)(p), n))
	case reflect.Int32:
		slices.Sort(unsafe.Slice((*int32)(p), n))
	case reflect.Int64:
		slices.Sort(unsafe.Slice((*int64)(p), n))
	case reflect.Uint:
		slices.Sort(unsafe.Slice((*uint)(p), n))
	case reflect.Uint8:
		slices.Sort(unsafe.Slice((*uint8)(p), n))
	case reflect.Uint16:
		slices.Sort(unsafe.Slice((*uint16)(p), n))
	case reflect.Uint32:
		slices.Sort(unsafe.Slice((*uint32)(p), n))
	case reflect.Uint64:
		slices.Sort(unsafe.Slice((*uint64)(p), n))
	case reflect.Uintptr:
		slices.Sort(unsafe.Slice((*uintptr)(p), n))
	case reflect.Float32:
		slices.Sort(unsafe.Slice((*float32)(p), n))
	case reflect.Float64:
		slices.Sort(unsafe.Slice((*float64)(p), n))
	case reflect.Bool:
		slices.SortFunc(unsafe.Slice((*bool)(p), n), func(a, b bool) int { return cmp.Compare(b2i(a), b2i(b)) })
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		return false
	default: // complex, array, struct, interface: by reflection
		vals := make([]reflect.Value, n)
		for i := range keys {
			vals[i] = reflect.ValueOf(&keys[i]).Elem()
			if !orderable(vals[i]) {
				return false
			}
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return compareValues(vals[a], vals[b]) })
		sorted := make([]K, n)
		for i, j := range idx {
			sorted[i] = keys[j]
		}
		copy(keys, sorted)
	}
	return true
}

//go:norace
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// orderable reports whether v's value determines its order in every run:
// nothing in it is a pointer, a channel or an unsafe pointer.
//
//go:norace
func orderable(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer, reflect.Func, reflect.Map, reflect.Slice:
		return false
	case reflect.Interface:
		return v.IsNil() || orderable(v.Elem())
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if !orderable(v.Index(i)) {
				return false
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !orderable(v.Field(i)) {
				return false
			}
		}
	}
	return true
}

// compareValues orders two orderable values of one comparable type:
// interfaces by dynamic type name first, then by value.
//
//go:norace
func compareValues(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Interface:
		switch {
		case a.IsNil() || b.IsNil():
			return cmp.Compare(b2i(!a.IsNil()), b2i(!b.IsNil()))
		case a.Elem().Type() != b.Elem().Type():
			return cmp.Compare(a.Elem().Type().String(), b.Elem().Type().String())
		}
		return compareValues(a.Elem(), b.Elem())
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		if c := cmp.Compare(real(a.Complex()), real(b.Complex())); c != 0 {
			return c
		}
		return cmp.Compare(imag(a.Complex()), imag(b.Complex()))
	case reflect.Bool:
		return cmp.Compare(b2i(a.Bool()), b2i(b.Bool()))
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareValues(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareValues(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
	}
	return 0
}
