package twostage_deep

import "testing"

func TestTwostageDeep(t *testing.T) {
	Run(t)
}
