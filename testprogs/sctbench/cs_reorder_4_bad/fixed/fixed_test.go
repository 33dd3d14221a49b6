package fixed

import "testing"

func TestReorder4(t *testing.T) {
	Run(t)
}
