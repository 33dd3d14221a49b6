package fixed

import "testing"

func TestReorderDeep(t *testing.T) {
	Run(t)
}
