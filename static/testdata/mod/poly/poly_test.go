package poly

import "testing"

func TestPoly(t *testing.T) { run() }
