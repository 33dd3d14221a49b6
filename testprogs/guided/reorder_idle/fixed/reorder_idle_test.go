package fixed

import "testing"

func TestReorderIdle(t *testing.T) {
	Run(t)
}
