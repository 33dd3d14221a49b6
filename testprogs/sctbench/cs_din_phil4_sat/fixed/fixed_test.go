package fixed

import "testing"

func TestDinPhil4(t *testing.T) {
	Run(t)
}
