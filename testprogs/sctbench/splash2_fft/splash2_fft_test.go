package splash2_fft

import "testing"

func TestAllFinished(t *testing.T) {
	Run(t)
}
