package fixed

import "testing"

func TestAget(t *testing.T) {
	Run(t)
}
