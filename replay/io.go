package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gosct/gosct/strategies"
)

// Write stores t as indented JSON at path. It writes a temporary file in the
// same directory and renames it into place, so a reader (or a crash in the
// middle of the write, e.g. a test binary killed by its timeout) never sees a
// half-written trace. A zero Format is set to the current Format.
func Write(path string, t *Trace) error {
	if t == nil {
		return errors.New("replay.Write: nil trace")
	}
	c := *t
	if c.Format == 0 {
		c.Format = Format
	}
	b, err := json.MarshalIndent(&c, "", "\t")
	if err != nil {
		return fmt.Errorf("encode trace: %v", err)
	}
	b = append(b, '\n')
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("write trace: %v", err)
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file 0600; traces are meant to be shared
		// and committed like any testdata file.
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write trace %s: %v", path, err)
	}
	return nil
}

// Read loads the trace at path. Its errors say, in the user's terms, whether
// the file could not be read, is not a gosct trace, or was written by a newer
// gosct.
func Read(path string) (*Trace, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("trace %s does not exist", path)
		}
		return nil, fmt.Errorf("cannot read trace %s: %v", path, err)
	}
	return Decode(path, b)
}

// Decode parses a trace from b; name is used in error messages.
func Decode(name string, b []byte) (*Trace, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s is empty: not a gosct trace", name)
	}
	// Peek at the version first: a newer format may not decode into
	// today's types, and "upgrade gosct" is the useful message then.
	var head struct {
		Format *int `json:"format"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("%s is not a gosct trace: invalid JSON: %v", name, err)
	}
	if head.Format == nil || *head.Format <= 0 {
		return nil, fmt.Errorf("%s is not a gosct trace: it has no format version", name)
	}
	if *head.Format > Format {
		return nil, fmt.Errorf("%s has trace format %d; this gosct reads format %d or older: upgrade gosct", name, *head.Format, Format)
	}
	var t Trace
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s is not a valid gosct trace: %v", name, err)
	}
	if t.Test == "" {
		return nil, fmt.Errorf("%s is not a valid gosct trace: it names no test", name)
	}
	for i, d := range t.Decisions {
		if _, ok := strategies.KindOf(d.Kind); !ok {
			return nil, fmt.Errorf("%s is not a valid gosct trace: decision %d has unknown kind %q", name, i, d.Kind)
		}
	}
	return &t, nil
}
