package cs_fsbench_bad

import "testing"

func TestFsbench(t *testing.T) {
	Run(t)
}
