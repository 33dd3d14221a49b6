package fixed

import "testing"

func TestTwostageIdle(t *testing.T) {
	Run(t)
}
