package runtime

import (
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// TestTraceRecordsVersion: a trace carries the version `gosct version`
// prints, which is set in one place (wire.Version).
func TestTraceRecordsVersion(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimDeadlock", wire.Config{Strategy: "random"}), "deadlock")
	tr, err := replay.Read(b.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Gosct != wire.Version {
		t.Errorf("trace records gosct %q, want %q", tr.Gosct, wire.Version)
	}
}
