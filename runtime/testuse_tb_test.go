package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// startWorker is a helper as tests write them: it takes a testing.TB and
// stops its goroutine in a cleanup registered through it.
func startWorker(tb testing.TB) {
	stop := Chan(make(chan struct{}))
	stopped := Chan(make(chan struct{}))
	Go(func() {
		Recv(stop)
		Close(stopped)
	})
	CleanupTB(tb, func() {
		Close(stop)
		Recv(stopped)
	})
}

// A cleanup registered through testing.TB runs inside the execution: the
// goroutine it stops is neither leaked nor left hanging.
func TestCleanupTBStopsBackgroundGoroutine(t *testing.T) {
	check(t, "random", 5, func(t *testing.T) { startWorker(t) })
}

// fakeTB is a testing.TB that is no *testing.T: CleanupTB calls its own
// Cleanup.
type fakeTB struct {
	testing.TB
	fs []func()
}

func (f *fakeTB) Cleanup(fn func()) { f.fs = append(f.fs, fn) }

func TestCleanupTBOtherType(t *testing.T) {
	f := &fakeTB{}
	CleanupTB(f, func() {})
	if len(f.fs) != 1 {
		t.Fatalf("CleanupTB on a fake registered %d functions with it, want 1", len(f.fs))
	}
	if got := TB[testing.TB](f); got != testing.TB(f) {
		t.Fatal("TB did not return its argument")
	}
}

// Logging through a testing.TB after the test returned is reported, as
// through a *testing.T.
func TestVictimTBLogAfterReturn(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var tb testing.TB = t
		var mu sync.Mutex
		Go(func() {
			Lock(&mu)
			TB(tb).Log("late")
			Unlock(&mu)
		})
	})
}

func TestTBLogAfterReturnFound(t *testing.T) {
	evs := victim(t, "TestVictimTBLogAfterReturn", wire.Config{Strategy: "dfs"})
	found := false
	for _, e := range bugs(evs) {
		if e.Kind == "failure" && strings.Contains(e.Message, "after the test function had returned") && strings.Contains(e.Report, "testuse_tb_test.go") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no report of logging through testing.TB after the test completed in %+v", evs)
	}
}
