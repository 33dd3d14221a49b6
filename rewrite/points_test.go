package rewrite

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPoints: the rewriter lists every scheduling point it inserts, at the
// line the runtime will see: a deferred hook at each exit of its function
// (each return, and the closing brace unless the body cannot reach it).
func TestPoints(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "sync"

var mu sync.Mutex
var n int

func F(ch chan int) int {
	mu.Lock() // point: mutex lock
	defer mu.Unlock()
	n++ // point: read, write
	if n > 2 { // point: read
		return n // point: read, mutex unlock
	}
	ch <- 1 // point: chan send
	return 0 // point: mutex unlock
}

func G(ch chan int) {
	defer close(ch)
	if len(ch) > 0 { // point: chan len
		return // point: chan close
	}
	go func() { // point: go
		defer mu.Unlock()
		mu.Lock() // point: mutex lock
	}() // point: mutex unlock
} // point: chan close

func H() {
	defer mu.Unlock()
	for {
		mu.Lock() // point: mutex lock
	}
}
`
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644)
	var want []string
	for i, l := range strings.Split(src, "\n") {
		if _, ops, ok := strings.Cut(l, "// point: "); ok {
			for _, op := range strings.Split(ops, ", ") {
				want = append(want, fmt.Sprintf("%d %s", i+1, op))
			}
		}
	}
	b := instrument(t, dir, ".")
	if len(b.Packages) != 1 {
		t.Fatalf("packages %+v", b.Packages)
	}
	var got []string
	for _, p := range b.Packages[0].Points {
		if filepath.Base(p.File) != "p.go" || !filepath.IsAbs(p.File) {
			t.Errorf("point in %s, want the absolute path of p.go", p.File)
		}
		got = append(got, fmt.Sprintf("%d %s", p.Line, p.Op))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
