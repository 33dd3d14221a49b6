package cs_carter01_bad

import "testing"

func TestCarter01(t *testing.T) {
	Run()
}
