//go:build race

package runtime

import (
	"fmt"
	"testing"
)

// The service goroutine and a user goroutine share fmt's printers through
// a sync.Pool: the detector must see the pool's edges, or it reports the
// printer's reuse as a race and fails this binary. The pool drops a
// quarter of its Puts at random under -race, so one round proves little.
func TestServiceSharesPools(t *testing.T) {
	for i := 0; i < 200; i++ {
		onService(func() { _ = fmt.Sprintf("%d", i) }, false)
		_ = fmt.Sprintf("%d", i)
	}
}
