package fixed

import "testing"

func TestDinPhil2(t *testing.T) {
	Run(t)
}
