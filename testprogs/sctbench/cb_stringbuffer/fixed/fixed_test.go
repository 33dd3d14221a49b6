package fixed

import "testing"

func TestStringBuffer(t *testing.T) {
	Run(t)
}
