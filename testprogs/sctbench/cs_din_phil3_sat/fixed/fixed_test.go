package fixed

import "testing"

func TestDinPhil3(t *testing.T) {
	Run(t)
}
