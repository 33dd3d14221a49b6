package misc_safestack

import "testing"

func TestSafeStack(t *testing.T) {
	Run(t)
}
