package cb_aget_bug2

import "testing"

func TestAget(t *testing.T) {
	Run(t)
}
