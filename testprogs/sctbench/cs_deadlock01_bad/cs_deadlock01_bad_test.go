package cs_deadlock01_bad

import "testing"

func TestDeadlock01(t *testing.T) {
	Run()
}
