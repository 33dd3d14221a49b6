package twostage_idle

import "testing"

func TestTwostageIdle(t *testing.T) {
	Run(t)
}
