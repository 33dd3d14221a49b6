package linkfiles

import "time"

// now and nano are linknamed to Go's clocks in directives.go.

func now() (sec int64, nsec int32, mono int64)

func nano() int64

// Elapsed reads both clocks across a sleep.
func Elapsed(d time.Duration) (wall, mono, n int64) {
	s0, ns0, m0 := now()
	t0 := nano()
	time.Sleep(d)
	s1, ns1, m1 := now()
	return (s1-s0)*1e9 + int64(ns1-ns0), m1 - m0, nano() - t0
}
