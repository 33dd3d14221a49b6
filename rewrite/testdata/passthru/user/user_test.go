package user

import (
	"testing"

	"example.com/passthru/helper"
)

func TestLocked(t *testing.T) {
	n := 0
	helper.Locked(func() { n++ })
	if n != 1 {
		t.Fatal(n)
	}
}
