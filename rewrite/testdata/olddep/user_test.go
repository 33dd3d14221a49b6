package olduser

import (
	"testing"

	"example.com/olddep"
)

func TestOldDep(t *testing.T) {
	var c olddep.Counter
	seen := olddep.Fanout(3, func(int) { c.Add() })
	if c.N() != 3 {
		t.Errorf("count %d", c.N())
	}
	// go 1.13 semantics: every closure read the loop's one variable after
	// the loop ended.
	for _, v := range seen {
		if v != 3 {
			t.Errorf("a closure saw %d: the dependency's loop variable is per-iteration, its go line says it is not", v)
		}
	}
}
