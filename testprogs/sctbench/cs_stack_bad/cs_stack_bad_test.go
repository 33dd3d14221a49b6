package cs_stack_bad

import "testing"

func TestStack(t *testing.T) {
	Run(t)
}
