package fixed

import "testing"

func TestPhase01(t *testing.T) {
	Run(t)
}
