package splash2_barnes

import "testing"

func TestAllFinished(t *testing.T) {
	Run(t)
}
