package splash2_lu

import "testing"

func TestAllFinished(t *testing.T) {
	Run(t)
}
