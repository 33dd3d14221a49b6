// Package divergeonce's test takes another path in one process of a run:
// the second process that runs it, counted in the file the environment
// variable DIVERGEONCE_COUNT names (set by the e2e test; unset, the path
// is always the same). A replay of its schedule in that process diverges,
// as a replay whose schedule read something gosct does not control may;
// in the next, it replays.
package divergeonce

import (
	"os"
	"strconv"
	"strings"
)

// Process counts this process in the file $DIVERGEONCE_COUNT names and
// returns its number (1 for the first), 0 when the variable is unset.
func Process() int {
	path := os.Getenv("DIVERGEONCE_COUNT")
	if path == "" {
		return 0
	}
	data, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	n++
	if err := os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644); err != nil {
		panic(err)
	}
	return n
}
