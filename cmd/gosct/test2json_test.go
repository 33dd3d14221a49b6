package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// checkTest2JSON checks a --json=go stream against Go's own test2json
// (`go tool test2json`, the converter go test -json runs the test binary
// through). For each package, it rebuilds the text a test binary prints
// under go test -json for those events (-test.v=test2json: framing lines
// behind the ^V marker, "=== NAME" when output changes test, "=== ATTR"
// for an attribute), converts it with test2json, and wants test2json's
// events to be the stream's: the same actions, tests, outputs, attributes
// and test durations, in the same order. So any reader of go test's
// stream reads gosct's as it would read go test's.
//
// One difference is deliberate: gosct's attr events come without the
// "=== ATTR" output line go test adds, since their value is gosct's whole
// event (the report included) and readers such as gotestsum print every
// output line of a failing test. Packages that did not build are left
// out: their events are go build's, not test2json's.
func checkTest2JSON(t *testing.T, stream string) {
	t.Helper()
	pkgs, order := map[string][]goEvent{}, []string(nil)
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var e goEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if e.Action == "build-output" || e.Action == "build-fail" {
			continue
		}
		if _, ok := pkgs[e.Package]; !ok {
			order = append(order, e.Package)
		}
		pkgs[e.Package] = append(pkgs[e.Package], e)
	}
	if len(order) == 0 {
		t.Fatalf("empty stream")
	}
	for _, pkg := range order {
		evs := pkgs[pkg]
		if evs[len(evs)-1].FailedBuild != "" {
			continue
		}
		got := test2json(t, pkg, binaryText(evs))
		want := comparable(evs, false)
		have := comparable(got, true)
		if strings.Join(want, "\n") != strings.Join(have, "\n") {
			i := 0
			for i < len(want) && i < len(have) && want[i] == have[i] {
				i++
			}
			t.Errorf("package %s: gosct's stream and test2json's differ at event %d:\ngosct:     %s\ntest2json: %s\n(test2json's events:\n%s)",
				pkg, i, at(want, i), at(have, i), strings.Join(have, "\n"))
		}
	}
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return "(end)"
}

// binaryText is what a test binary run by go test -json prints for a
// package's events.
func binaryText(evs []goEvent) string {
	const marker = "\x16"
	var b strings.Builder
	cur := "" // the test test2json attributes unmarked lines to
	for _, e := range evs {
		switch e.Action {
		case "output":
			line := *e.Output
			switch {
			case strings.HasPrefix(line, "=== RUN   "):
				cur = e.Test
				b.WriteString(marker + line)
			case strings.HasPrefix(line, "--- PASS: "), strings.HasPrefix(line, "--- FAIL: "), strings.HasPrefix(line, "--- SKIP: "):
				cur = e.Test
				b.WriteString(marker + line)
			case line == "PASS\n" || line == "FAIL\n":
				cur = ""
				b.WriteString(marker + line)
			default:
				if e.Test != cur {
					cur = e.Test
					b.WriteString(marker + "=== NAME  " + e.Test + "\n")
				}
				b.WriteString(line)
			}
		case "attr":
			cur = e.Test
			fmt.Fprintf(&b, "%s=== ATTR  %s %s %s\n", marker, e.Test, e.Key, e.Value)
		}
	}
	return b.String()
}

// test2json runs Go's converter on a test binary's text.
func test2json(t *testing.T, pkg, text string) []goEvent {
	t.Helper()
	cmd := exec.Command("go", "tool", "test2json", "-t", "-p", pkg)
	cmd.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go tool test2json: %v\n%s", err, stderr.String())
	}
	var evs []goEvent
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var e goEvent
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatalf("test2json wrote %q: %v", l, err)
		}
		evs = append(evs, e)
	}
	return evs
}

// comparable renders the events as the fields a reader uses: the action,
// the test, the output, the attribute, a test's duration (the package's
// is the converter's own clock).
func comparable(evs []goEvent, fromTest2JSON bool) []string {
	var out []string
	attrLine := false // in the pieces of an "=== ATTR" line
	for _, e := range evs {
		if fromTest2JSON && e.Action == "output" && (attrLine || strings.HasPrefix(*e.Output, "=== ATTR  ")) {
			attrLine = !strings.HasSuffix(*e.Output, "\n")
			continue
		}
		s := e.Action + " " + e.Test
		if e.Output != nil {
			s += fmt.Sprintf(" %q", *e.Output)
		}
		if e.Action == "attr" {
			s += " " + e.Key + "=" + e.Value
		}
		if e.Test != "" && e.Elapsed != nil {
			s += fmt.Sprintf(" (%gs)", *e.Elapsed)
		}
		out = append(out, s)
	}
	return out
}
