package loops

import (
	"reflect"
	"testing"
)

func TestCapture(t *testing.T) {
	if got := Capture(); !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Fatalf("per-iteration variables lost: %v", got)
	}
}
