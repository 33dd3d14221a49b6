package fixed

import "testing"

func TestReorder20(t *testing.T) {
	Run(t)
}
