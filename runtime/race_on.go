//go:build race

package runtime

import "runtime"

// The runtime's own hand-offs (the token passed through channels, its
// mutex) must not create happens-before edges between user goroutines, or
// they would hide the program's races from -race (shared/notes/go-facts.md
// §4). RaceDisable makes the race detector ignore the synchronization of
// the calling goroutine until RaceEnable.

func raceDisable() { runtime.RaceDisable() }
func raceEnable()  { runtime.RaceEnable() }

// raceEnabled reports whether the binary was built with -race.
const raceEnabled = true
