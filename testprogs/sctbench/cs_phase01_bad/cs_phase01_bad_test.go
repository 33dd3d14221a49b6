package cs_phase01_bad

import "testing"

func TestPhase01(t *testing.T) {
	Run()
}
