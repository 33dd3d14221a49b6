package runtime

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// A test that fails through t.Error or t.Fatal says why in its output,
// which go test shows only with -v or at the end, and gosct's command only
// with -v. The report of such a failure carries the schedule's own output
// instead: testing keeps a finished, failed subtest's lines in its
// parent's output buffer until the parent ends, and the runtime reads
// them there after each schedule's subtest (an unexported field: where a
// future Go moves it, the report says the output is in the test's log, as
// before). With -v testing prints the lines at once, and the buffer is
// empty.

// testOutput returns the output t holds for its parent so far, nil when
// unknown.
//
//go:norace
func testOutput(t *testing.T) []byte {
	if t == nil {
		return nil
	}
	c := reflect.ValueOf(t).Elem().FieldByName("common")
	if !c.IsValid() {
		return nil
	}
	f := c.FieldByName("output")
	if !f.IsValid() || f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Uint8 {
		return nil
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Bytes()
}

// scheduleOutput extracts the lines a failed schedule's subtest wrote
// (its "--- FAIL" header dropped, unindented) from what its parent's
// buffer gained while it ran; "" when none.
//
//go:norace
func scheduleOutput(parent *testing.T, before int) string {
	out := testOutput(parent)
	if before < 0 || before > len(out) {
		return ""
	}
	var lines []string
	indent := -1
	for _, l := range strings.Split(string(out[before:]), "\n") {
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "--- FAIL: ") || strings.HasPrefix(t, "--- PASS: ") || strings.HasPrefix(t, "--- SKIP: ") {
			continue
		}
		if n := len(l) - len(t); indent < 0 || n < indent {
			indent = n
		}
		lines = append(lines, l)
	}
	for i, l := range lines {
		lines[i] = l[min(indent, len(l)-len(strings.TrimLeft(l, " "))):]
	}
	if len(lines) > 50 {
		lines = append(lines[:50], "...")
	}
	return strings.Join(lines, "\n")
}
