package inspect_qsort_mt

import "testing"

func TestQsortMT(t *testing.T) {
	Run(t)
}
