package cs_wronglock_bad

import "testing"

func TestWronglock(t *testing.T) {
	Run(t)
}
