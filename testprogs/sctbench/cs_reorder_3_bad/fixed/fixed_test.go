package fixed

import "testing"

func TestReorder3(t *testing.T) {
	Run(t)
}
