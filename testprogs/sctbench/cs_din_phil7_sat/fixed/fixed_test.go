package fixed

import "testing"

func TestDinPhil7(t *testing.T) {
	Run(t)
}
