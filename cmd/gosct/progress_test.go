package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

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

// TestProgressRunETA: the line shows the run's tests done of all, and an
// ETA from the mean time of the tests done, no more than the run budget
// left.
func TestProgressRunETA(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "portfolio")
	p.plan(10, time.Minute)
	p.begin("example.com/q", 4)
	p.observe([]wire.Event{{Event: "test", Test: "TestA"}, {Event: "test", Test: "TestB"}})
	p.draw()
	if line := b.String(); !strings.Contains(line, "run: 2/10 tests, ETA ") {
		t.Errorf("progress line %q lacks the run's done/total and ETA", line)
	}
	if eta, ok := p.eta(10 * time.Second); !ok || eta != 40*time.Second {
		t.Errorf("eta after 2 tests in 10s, 8 left: %v %v, want 40s", eta, ok)
	}
	if eta, _ := p.eta(50 * time.Second); eta != 10*time.Second {
		t.Errorf("eta after 50s of a 1m run budget: %v, want the 10s left", eta)
	}
}

// TestProgressSaturated: the run's part of the line counts the tests the
// saturation rule stopped (without a bug).
func TestProgressSaturated(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "portfolio")
	p.plan(10, time.Minute)
	p.begin("example.com/q", 4)
	p.observe([]wire.Event{{Event: "test", Test: "TestA", Saturated: 12}, {Event: "test", Test: "TestB"},
		{Event: "test", Test: "TestC", Saturated: 30, Bugs: 1}})
	p.draw()
	if line := b.String(); !strings.Contains(line, "run: 3/10 tests (1 saturated)") {
		t.Errorf("progress line %q lacks the saturated count", line)
	}
}
