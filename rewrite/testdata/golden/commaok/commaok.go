package commaok

var M = map[string]int{}

type S struct{ m map[string]int }

func Reads(s *S, k string) int {
	if v, ok := M[k]; ok {
		return v
	}
	switch v, ok := s.m[k]; {
	case ok:
		return v
	}
	var v, ok = M[k]
	if !ok {
		return v
	}
	for v, ok := M[k]; ok; v, ok = M[k] {
		delete(M, k)
		_ = v
	}
	local := map[string]int{}
	if v, ok := local[k]; ok { // map elements are shared wherever the map is
		return v
	}
	if v, ok := M[k]; ok {
		return v
	}
	return 0
}

func Whole(s *S, m map[int]bool, f func() map[int]bool) int {
	n := 0
	for k := range s.m {
		delete(s.m, k)
		n++
	}
	for k, v := range m {
		if v {
			n += k
		}
	}
	clear(m)
	defer delete(m, 2) // a Write at the defer statement would come too early
	delete(f(), 1)     // the map is computed by a call: left alone
	for range f() {
		n++
	}
	var buf []int
	clear(buf) // not a map
	return n
}
