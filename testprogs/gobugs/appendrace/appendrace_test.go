package appendrace

import (
	"sort"
	"testing"
)

func TestCollectKeepsEveryResult(t *testing.T) {
	got := Collect([]Source{
		func() string { return "a" },
		func() string { return "b" },
	})
	sort.Strings(got)
	if len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("Collect = %v, want [a b]", got)
	}
}
