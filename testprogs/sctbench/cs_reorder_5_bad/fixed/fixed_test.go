package fixed

import "testing"

func TestReorder5(t *testing.T) {
	Run(t)
}
