package fixed

import "testing"

func TestPbzip2(t *testing.T) {
	Run(t)
}
