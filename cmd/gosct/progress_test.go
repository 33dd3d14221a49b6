package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "portfolio")
	p.begin("example.com/q", 2)
	p.observe([]wire.Event{
		{Event: "test", Test: "TestA", Schedules: 100},
		{Event: "progress", Test: "TestB", Schedules: 40, Strategy: "pct"},
		{Event: "bug", Test: "TestB", Schedule: 41},
	})
	p.draw()
	line := b.String()
	for _, want := range []string{"\r\x1b[K", "example.com/q TestB", "[1/2 tests]", "pct", "141 schedules", "1 bug"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	b.Reset()
	p.clear()
	if b.String() != "\r\x1b[K" {
		t.Errorf("clear wrote %q", b.String())
	}
	b.Reset()
	p.clear()
	if b.Len() != 0 {
		t.Errorf("a second clear wrote %q", b.String())
	}
}
