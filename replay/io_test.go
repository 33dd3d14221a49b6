package replay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sample() *Trace {
	return &Trace{
		Format: Format, Gosct: "dev", Go: "go1.21", Package: "example.com/q", Test: "TestQueue",
		Strategy: "pct", Params: map[string]any{"depth": float64(3)}, Seed: 42, Schedule: 7,
		Decisions: []Decision{
			{Kind: "goroutine", Choice: 1, G: 0, Op: "chan send", Pos: "queue.go:41", Enabled: []int{0, 1}},
			{Kind: "case", Choice: 2, G: 1, Enabled: []int{0, 2}},
		},
		Bug: &Bug{Kind: "deadlock", Message: "all goroutines are asleep",
			Goroutines: []Goroutine{{ID: 1, Created: "queue.go:30", State: "blocked", WaitingOn: "chan send"}}},
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bug.json")
	want := sample()
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the trace:\n got %+v\nwant %+v", got, want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}

func TestWriteLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bug.json")
	for i := 0; i < 3; i++ { // overwriting is a rename too
		if err := Write(path, sample()); err != nil {
			t.Fatal(err)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != "bug.json" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only bug.json", names)
	}
}

func TestWriteSetsFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bug.json")
	tr := sample()
	tr.Format = 0
	if err := Write(path, tr); err != nil {
		t.Fatal(err)
	}
	if tr.Format != 0 {
		t.Error("Write modified its argument")
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format != Format {
		t.Errorf("format %d, want %d", got.Format, Format)
	}
}

func TestWriteIntoMissingDirectoryFails(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "nope", "bug.json"), sample())
	if err == nil {
		t.Fatal("no error writing into a missing directory")
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, content, want string }{
		{"empty.json", "", "is empty"},
		{"text.json", "hello", "invalid JSON"},
		{"noformat.json", `{"test":"TestX"}`, "no format version"},
		{"newer.json", `{"format":99,"test":"TestX"}`, "upgrade gosct"},
		{"notest.json", `{"format":1}`, "names no test"},
		{"badkind.json", `{"format":1,"test":"TestX","decisions":[{"kind":"thread","choice":1}]}`, `unknown kind "thread"`},
		{"badtype.json", `{"format":1,"test":7}`, "not a valid gosct trace"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: error %v, want one naming the file and containing %q", c.name, err, c.want)
		}
	}
	_, err := Read(filepath.Join(dir, "missing.json"))
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing file: error %v", err)
	}
}

func TestReadToleratesUnknownFields(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(p, []byte(`{"format":1,"test":"TestX","future":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(p); err != nil {
		t.Fatalf("a compatible extension was refused: %v", err)
	}
}
