package runtime

// Moving elements within the runtime's slices. Go's copy reports its
// writes to the race detector from inside Go's runtime, where //go:norace
// does not reach, so the runtime's shared slices use these loops instead
// (tsan_on.go).

// deleteAt removes s[i], clearing the freed slot.
//
//go:norace
func deleteAt[T any](s []T, i int) []T {
	var zero T
	for j := i; j+1 < len(s); j++ {
		s[j] = s[j+1]
	}
	s[len(s)-1] = zero
	return s[:len(s)-1]
}

// insertAt inserts v at s[i].
//
//go:norace
func insertAt[T any](s []T, i int, v T) []T {
	var zero T
	s = append(s, zero)
	for j := len(s) - 1; j > i; j-- {
		s[j] = s[j-1]
	}
	s[i] = v
	return s
}
