package fixed

import "testing"

func TestDinPhil5(t *testing.T) {
	Run(t)
}
