package static

import (
	"path/filepath"
	"strings"
	"testing"
)

// A changed lock in locks.go: its fragment spans to the unlock, the go
// statements of TestLocks reach it, and TestLocks is the test to run.
func TestSinceFragments(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "mod"))
	p, _ := load(t, dir, "./locks")
	file := filepath.Join(dir, "locks", "locks.go")
	s := p.Since(map[string]Change{file: {Lines: []LineRange{{16, 16}}}})
	fr := s.Fragments.Frags
	if len(fr) != 1 || fr[0].File != file || fr[0].From != 16 || fr[0].To != 21 {
		t.Fatalf("fragments %+v, want locks.go:16-21 (Lock to its Unlock)", fr)
	}
	if len(s.Fragments.Spawns) != 1 || !strings.HasSuffix(s.Fragments.Spawns[0].File, "locks_test.go") || s.Fragments.Spawns[0].Line != 12 {
		t.Errorf("spawns %+v, want locks_test.go:12", s.Fragments.Spawns)
	}
	if !s.Affected("example.com/m/locks", "TestLocks") {
		t.Errorf("TestLocks not affected: %v", s.Tests)
	}

	// A deferred unlock: the fragment runs to the function's end.
	s = p.Since(map[string]Change{file: {Lines: []LineRange{{39, 39}}}})
	if fr := s.Fragments.Frags; len(fr) != 1 || fr[0].From != 39 || fr[0].To != 42 {
		t.Errorf("fragments %+v, want locks.go:39-42", fr)
	}

	// A change with no interaction (a comment line, a blank) is no
	// fragment, and no test is affected.
	s = p.Since(map[string]Change{file: {Lines: []LineRange{{1, 3}}}})
	if len(s.Fragments.Frags) != 0 || len(s.Tests) != 0 {
		t.Errorf("a comment change: fragments %+v tests %v", s.Fragments.Frags, s.Tests)
	}
}
