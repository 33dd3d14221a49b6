package cs_wronglock_3_bad

import "testing"

func TestWronglock(t *testing.T) {
	Run(t)
}
