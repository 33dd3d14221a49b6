package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// A goroutine that logs through t after the test function returned: Go's
// testing panics ("Log in goroutine after TestX has completed") when the
// goroutine runs late, which is a bug of the test.
func TestVictimLogAfterReturn(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var mu sync.Mutex
		Go(func() {
			Lock(&mu)
			T(t).Log("late")
			Unlock(&mu)
		})
	})
}

// The same goroutine, waited for, is no bug.
func TestVictimLogBeforeReturn(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		Add(&wg, 1)
		Go(func() {
			T(t).Log("in time")
			Done(&wg)
		})
		Wait(&wg)
	})
}

func TestLogBeforeReturnNoBug(t *testing.T) {
	evs := victim(t, "TestVictimLogBeforeReturn", wire.Config{Strategy: "dfs"})
	if b := bugs(evs); len(b) > 0 {
		t.Fatalf("bug reported for a goroutine that logs before the test returns: %+v", b)
	}
}

func TestLogAfterReturnFound(t *testing.T) {
	evs := victim(t, "TestVictimLogAfterReturn", wire.Config{Strategy: "dfs"})
	found := false
	for _, e := range bugs(evs) {
		if e.Kind == "failure" && strings.Contains(e.Message, "after the test function had returned") && strings.Contains(e.Report, "testmisuse_test.go") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no report of logging after the test completed in %+v", evs)
	}
}
