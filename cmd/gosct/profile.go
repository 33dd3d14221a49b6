package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// envCPUProfile names a file for a CPU profile of the gosct command
// itself (the driver: rewriting, static analysis, building, reading the
// test binaries' results), as the test binaries take -cpuprofile after
// --. It is for .ci/profile (docs/performance.md), not a user's flag.
const envCPUProfile = "GOSCT_CPUPROFILE"

// startProfile starts the driver's CPU profile when envCPUProfile is set,
// and returns the function that writes it.
func startProfile() func() {
	path := os.Getenv(envCPUProfile)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gosct: %s: %v\n", envCPUProfile, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
