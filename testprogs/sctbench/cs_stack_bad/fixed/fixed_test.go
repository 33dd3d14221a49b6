package fixed

import "testing"

func TestStack(t *testing.T) {
	Run(t)
}
