package fixed

import "testing"

func TestFsbench(t *testing.T) {
	Run(t)
}
