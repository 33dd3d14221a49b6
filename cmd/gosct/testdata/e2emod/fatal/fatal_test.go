package fatal

import (
	"log"
	"testing"
)

// The tests are not in sorted order: the test binary runs them as
// written, TestAfter last.

func TestStart(t *testing.T) {
	if got := Sum(2); got != 2 {
		t.Fatalf("Sum(2) = %d", got)
	}
}

func TestExit(t *testing.T) {
	if got := Sum(2); got == 2 {
		log.Fatalf("helper: giving up after Sum(2) = %d", got)
	}
}

func TestAfter(t *testing.T) {
	if got := Sum(3); got != 3 {
		t.Fatalf("Sum(3) = %d", got)
	}
}
