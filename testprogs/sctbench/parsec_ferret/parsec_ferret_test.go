package parsec_ferret

import "testing"

// TestFerret hangs (main waits for a "done" nobody sends) when the load
// thread sets input_end only after the output stage checked it.
func TestFerret(t *testing.T) {
	Run(t)
}
