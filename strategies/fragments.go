package strategies

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// FragmentsFormat is the version of the fragments file; a file of another
// version is refused.
const FragmentsFormat = 1

// Fragments is what pairwise incremental checking (pairwise.go) needs to
// know of a change: the modified code fragments and the go statements
// whose goroutines can run them. The command computes it from a git diff
// (package static, `gosct test --since REV`) and hands it to the test
// binary as a file (Options.Fragments).
type Fragments struct {
	Format int `json:"format"`
	// Since is the revision the change is measured from, for messages.
	Since string `json:"since,omitempty"`
	// Frags are the modified fragments.
	Frags []Fragment `json:"fragments"`
	// Spawns are the go statements whose goroutines may reach a
	// fragment through calls (the call graph, go edges not followed):
	// the static threads of the seed that may execute the change.
	Spawns []Frame `json:"spawns,omitempty"`
}

// A Fragment is the l_mod of pairwise incremental checking's paper: adjacent lines of one function that
// hold a changed thread-interaction statement (a scheduling point, or a
// call of code that reaches one) and the statements around it that
// compute its operands, consume its result or, for a lock, run while it
// is held.
type Fragment struct {
	File string `json:"file"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// Func names the function, What the changed operations, for people.
	Func string   `json:"func,omitempty"`
	What []string `json:"what,omitempty"`
}

// Contains reports whether file:line lies in f.
func (f Fragment) Contains(file string, line int) bool {
	return f.File == file && line >= f.From && line <= f.To
}

// WriteFragments writes fr to path atomically.
func WriteFragments(path string, fr *Fragments) error {
	fr.Format = FragmentsFormat
	b, err := json.MarshalIndent(fr, "", "\t")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".fragments-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ReadFragments reads a file WriteFragments wrote.
func ReadFragments(path string) (*Fragments, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fr Fragments
	if err := json.Unmarshal(b, &fr); err != nil {
		return nil, fmt.Errorf("fragments file %s: %v", path, err)
	}
	if fr.Format != FragmentsFormat {
		return nil, fmt.Errorf("fragments file %s: format %d, want %d", path, fr.Format, FragmentsFormat)
	}
	return &fr, nil
}
