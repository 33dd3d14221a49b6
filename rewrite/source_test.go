package rewrite

import (
	"bytes"
	"strings"
	"testing"
)

func TestSource(t *testing.T) {
	b := instrument(t, "testdata/golden", "./chans")
	var full, diff bytes.Buffer
	if err := Source(b, false, &full); err != nil {
		t.Fatal(err)
	}
	if err := Source(b, true, &diff); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(full.String(), "\tgosct.Send(ch, 1)\n") || strings.Contains(full.String(), "//line") {
		t.Errorf("source:\n%s", full.String())
	}
	for _, want := range []string{"-\tch <- 1\n", "+\tgosct.Send(ch, 1)\n", "+++ ", "@@ -"} {
		if !strings.Contains(diff.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, diff.String())
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := strings.Split("a b c d e f g h i j k l m", " ")
	b := strings.Split("a b X d e f g h i j k l m Y", " ")
	got := unifiedDiff("f", a, b)
	want := "--- f\n+++ f (instrumented)\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+X\n d\n e\n f\n@@ -11,3 +11,4 @@\n k\n l\n m\n+Y\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := unifiedDiff("f", a, a); d != "--- f\n+++ f (instrumented)\n" {
		t.Errorf("diff of equal inputs: %q", d)
	}
}
