package testbin

import (
	"os"
	"path/filepath"
	"testing"
)

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestResultsReaderIncremental(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results")
	r := &resultsReader{path: path}
	if evs, err := r.poll(); err != nil || len(evs) != 0 {
		t.Fatalf("missing file: %v, %v", evs, err)
	}
	appendFile(t, path, `{"event":"bug","test":"TestA","kind":"leak","schedule":3}`+"\n"+`{"event":"te`)
	evs, err := r.poll()
	if err != nil || len(evs) != 1 || evs[0].Kind != "leak" || evs[0].Schedule != 3 {
		t.Fatalf("first poll: %+v, %v", evs, err)
	}
	appendFile(t, path, `st","test":"TestA","schedules":10}`+"\nnot json\n\n")
	evs, err = r.poll()
	if err != nil || len(evs) != 1 || evs[0].Event != "test" || evs[0].Schedules != 10 {
		t.Fatalf("second poll (line completed): %+v, %v", evs, err)
	}
	if r.bad != 1 {
		t.Errorf("bad lines %d, want 1", r.bad)
	}
	evs, truncated, err := r.finish()
	if err != nil || len(evs) != 0 || truncated {
		t.Errorf("finish: %+v %v %v", evs, truncated, err)
	}
}

func TestResultsReaderCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results")
	appendFile(t, path, `{"event":"test","test":"TestA"}`+"\n"+`{"event":"bug","te`)
	r := &resultsReader{path: path}
	evs, truncated, err := r.finish()
	if err != nil || len(evs) != 1 || !truncated {
		t.Fatalf("finish: %+v, truncated %v, %v", evs, truncated, err)
	}
	// A complete last event without its newline is still an event.
	path2 := filepath.Join(t.TempDir(), "results")
	appendFile(t, path2, `{"event":"test","test":"TestA"}`)
	r = &resultsReader{path: path2}
	evs, truncated, err = r.finish()
	if err != nil || len(evs) != 1 || truncated {
		t.Fatalf("unterminated last line: %+v, truncated %v, %v", evs, truncated, err)
	}
}
