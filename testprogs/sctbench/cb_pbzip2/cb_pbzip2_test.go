package cb_pbzip2

import "testing"

func TestPbzip2(t *testing.T) {
	Run(t)
}
