package fixed

import "testing"

func TestTwostageDeep(t *testing.T) {
	Run(t)
}
