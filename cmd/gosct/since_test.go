package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gosct/gosct/static"
)

func TestParseDiff(t *testing.T) {
	diff := `diff --git a/q/q.go b/q/q.go
index 1..2 100644
--- a/q/q.go
+++ b/q/q.go
@@ -11,0 +12,2 @@ func (q *Q) Put(x int) {
+	n := q.items
+	q.mu.Unlock()
@@ -20 +22 @@ func (q *Q) Len() int {
-	return len(q.items)
+	return len(q.items) + 0
@@ -30,2 +31,0 @@ func f() {
-	// a comment
-
@@ -40 +39,0 @@ func g() {
-	q.mu.Lock()
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,3 +0,0 @@
-package q
`
	s := &sinceRun{changes: map[string]static.Change{}}
	s.parseDiff("/r", diff)
	want := map[string]static.Change{
		filepath.Join("/r", "q/q.go"): {
			Lines:   []static.LineRange{{From: 12, To: 13}, {From: 22, To: 22}},
			Removed: []int{39},
		},
	}
	if !reflect.DeepEqual(s.changes, want) {
		t.Errorf("changes %+v, want %+v", s.changes, want)
	}
	if s.lines != 4 {
		t.Errorf("%d changed lines, want 4", s.lines)
	}
	// The base version's lines the hunks remove or replace, for the
	// syntactic check; the deleted file is not checked line by line.
	wantOld := map[string][]static.LineRange{filepath.Join("/r", "q/q.go"): {{From: 20, To: 20}, {From: 30, To: 31}, {From: 40, To: 40}}}
	if !reflect.DeepEqual(s.old, wantOld) || !s.opaque {
		t.Errorf("old lines %+v opaque %v, want %+v and opaque", s.old, s.opaque, wantOld)
	}
}
