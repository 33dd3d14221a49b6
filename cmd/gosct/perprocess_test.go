package main

import (
	"regexp"
	"testing"
)

func TestTestPattern(t *testing.T) {
	cases := []struct{ test, run, want string }{
		{"TestA", "", "^TestA$"},
		{"TestA", "Test", "^TestA$"},
		{"TestA", "TestA/sub", "^TestA$//sub"},
		{"Test_x.y", "Test_/a/b", `^Test_x\.y$//a/b`},
	}
	for _, c := range cases {
		if got := testPattern(c.test, c.run); got != c.want {
			t.Errorf("testPattern(%q, %q) = %q, want %q", c.test, c.run, got, c.want)
		}
	}
	// Anchored: a test whose name the test's is a prefix of is not run.
	re := regexp.MustCompile(testPattern("TestA", ""))
	if re.MatchString("TestAB") || !re.MatchString("TestA") {
		t.Error("pattern not anchored")
	}
}
