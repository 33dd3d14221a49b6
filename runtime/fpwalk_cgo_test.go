//go:build cgo

package runtime

import (
	"fmt"
	"testing"

	"github.com/gosct/gosct/runtime/internal/cgocb"
)

// A goroutine in a cgo callback (Go calls C, which calls Go back) records
// its stack at a scheduling point like any other: below the callback's Go
// frames, its frame pointer chain goes through runtime.cgocallback and C
// frames, possibly on the thread's own stack. The walk must either give
// runtime.Callers' frames or give up (ok false, runtime.Callers records),
// never stop early or follow C's frames as Go's.
func TestRecordInCgoCallback(t *testing.T) {
	fptStart(t)
	for d := 0; d <= 20; d++ {
		name := fmt.Sprintf("cgo/depth%d", d)
		cgocb.Call(func() { fptDepth(d, name, false) })
		// Go frames below the C call as well.
		fptDepthThen(d, func() { cgocb.Call(func() { recordBoth(name + "/below") }) })
	}
	samples := fptTake()
	if len(samples) != 42 {
		t.Fatalf("%d samples, want 42", len(samples))
	}
	walked := 0
	for _, s := range samples {
		if !s.cl.logical {
			t.Fatalf("%s: not recorded by runtime.Callers", s.name)
		}
		if b := s.compare(t); b == "" {
			t.Errorf("%s: no user frame", s.name)
		}
		if !s.fp.logical {
			walked++
		}
	}
	t.Logf("%d of %d cgo callback stacks walked by frame pointers, the others by runtime.Callers", walked, len(samples))
}
