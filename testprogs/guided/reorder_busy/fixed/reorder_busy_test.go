package fixed

import "testing"

func TestReorderBusy(t *testing.T) {
	Run(t)
}
