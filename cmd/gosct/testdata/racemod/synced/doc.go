// Package synced holds correctly synchronized tests: each writes a
// variable from two goroutines, ordered by one kind of synchronization.
// Under gosct with -race, Go's race detector must report nothing.
package synced
