package loopvargo

import (
	"reflect"
	"testing"
)

func TestStartAllRegistersEveryName(t *testing.T) {
	var r Registry
	names := []string{"api", "db", "web"}
	prints := StartAll(&r, names)
	if got := r.Names(); !reflect.DeepEqual(got, names) {
		t.Errorf("registered %v, want %v", got, names)
	}
	if len(prints) != len(names) {
		t.Errorf("%d fingerprints, want %d", len(prints), len(names))
	}
}
