package testbin

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/gosct/gosct/internal/wire"
)

// resultsReader reads the events a test binary appends to its results file,
// incrementally: progress polls it while the binary runs, and the final read
// after it exits picks up the rest.
type resultsReader struct {
	path string
	off  int64
	// partial is an incomplete last line, kept until its newline arrives.
	partial []byte
	// bad counts lines that were not valid events.
	bad int
}

// poll returns the events completed since the last call. A missing file is
// no events yet.
func (r *resultsReader) poll() ([]wire.Event, error) {
	f, err := os.Open(r.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(r.off, io.SeekStart); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	r.off += int64(len(b))
	data := append(r.partial, b...)
	var evs []wire.Event
	for {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			break
		}
		line := bytes.TrimSpace(data[:nl])
		data = data[nl+1:]
		if len(line) == 0 {
			continue
		}
		var e wire.Event
		if err := json.Unmarshal(line, &e); err != nil || e.Event == "" {
			r.bad++
			continue
		}
		evs = append(evs, e)
	}
	r.partial = append([]byte(nil), data...)
	return evs, nil
}

// finish reads what is left once the binary has exited. A last line without
// its newline is a write cut short by a crash; it is still used when it
// parses. It reports whether such a truncated line was dropped.
func (r *resultsReader) finish() (evs []wire.Event, truncated bool, err error) {
	evs, err = r.poll()
	if err != nil {
		return evs, false, err
	}
	if line := bytes.TrimSpace(r.partial); len(line) > 0 {
		var e wire.Event
		if json.Unmarshal(line, &e) == nil && e.Event != "" {
			evs = append(evs, e)
		} else {
			truncated = true
		}
		r.partial = nil
	}
	return evs, truncated, nil
}
