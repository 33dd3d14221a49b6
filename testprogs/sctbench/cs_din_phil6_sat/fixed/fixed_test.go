package fixed

import "testing"

func TestDinPhil6(t *testing.T) {
	Run(t)
}
