package oldloops

import (
	"reflect"
	"testing"
)

func TestCapture(t *testing.T) {
	if got := Capture(); !reflect.DeepEqual(got, []int{3, 3, 3}) {
		t.Fatalf("go1.21 shares the loop variable: %v", got)
	}
}
