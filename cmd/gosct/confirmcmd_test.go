package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gosct/gosct/confirm"
	"github.com/gosct/gosct/internal/wire"
)

func TestParseConfirm(t *testing.T) {
	o, _, err := parseConfirm([]string{"--runs", "5", "--how", "handshake,sleep", "t.json", "--", "-race", "-tags", "x"})
	if err != nil {
		t.Fatal(err)
	}
	hows, _ := o.hows()
	if o.runs != 5 || o.trace != "t.json" || o.timeout != 0 || len(hows) != 2 || hows[0] != confirm.Handshake || o.gotest.tags != "x" {
		t.Errorf("parsed %+v (ways %v)", o, hows)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no trace given"},
		{[]string{"a.json", "b.json"}, "one trace at a time"},
		{[]string{"--runs", "0", "a.json"}, "--runs must be at least 1"},
		{[]string{"--how", "nap", "a.json"}, `unknown way "nap"`},
		{[]string{"--delay", "0s", "a.json"}, "--delay must be positive"},
		{[]string{"--confirm-timeout", "-1s", "a.json"}, "--confirm-timeout must not be negative"},
	} {
		_, _, err := parseConfirm(c.args)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseConfirm(%q) = %v, want a usage error containing %q", c.args, err, c.want)
		}
	}
}

// TestConfirmBadInput: a trace that cannot be read is exit status 2,
// with the file named.
func TestConfirmBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{bad}, {filepath.Join(t.TempDir(), "missing.json")}, {"--how", "nap", bad}} {
		var out, errb bytes.Buffer
		if st := run(context.Background(), append([]string{"confirm"}, args...), &out, &errb); st != exitError || !strings.Contains(errb.String(), "gosct confirm: ") {
			t.Errorf("gosct confirm %q: exit %d, stderr %q; want 2 and a message", args, st, errb.String())
		}
	}
}

// TestBugCarriesItsConfirmation: with --confirm, the bug's first line
// ends with the confirmation, and the JSON object carries it.
func TestBugCarriesItsConfirmation(t *testing.T) {
	conf := &jsonConfirm{Confirmed: true, Same: 9, Runs: 10, Summary: "confirmed under go test: 9 of 10 runs fail the same way with this delay (sleep): a.go:3", Patch: "--- a/a.go\n"}
	e := wireBug()
	var out bytes.Buffer
	rep := newReporter(&out, &out, false, false, "random", 1)
	rep.bugConfirmed("p", e, "", conf)
	first, _, _ := strings.Cut(out.String(), "\n")
	if !strings.HasPrefix(first, "--- BUG deadlock in TestX (package p, schedule 3, strategy random): confirmed under go test: 9 of 10") {
		t.Errorf("first line %q", first)
	}
	if !strings.Contains(out.String(), "    patch:  gosct confirm /tmp/t.json\n") {
		t.Errorf("no pointer to the patch:\n%s", out.String())
	}
	out.Reset()
	rep = newReporter(&out, &out, true, false, "random", 1)
	rep.bugConfirmed("p", e, "", conf)
	if !strings.Contains(out.String(), `"confirm":{"confirmed":true,"same":9,"runs":10,`) {
		t.Errorf("JSON %s", out.String())
	}
}

func wireBug() wire.Event {
	return wire.Event{Event: "bug", Test: "TestX", Kind: "deadlock", Schedule: 3, Trace: "/tmp/t.json",
		Message: "all goroutines are blocked", Report: "a.go:3: deadlock: all goroutines are blocked\n\nG0 ...", Key: "deadlock:a.go:3"}
}
