package fixed

import "testing"

func TestReorder10(t *testing.T) {
	Run(t)
}
