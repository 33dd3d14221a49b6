package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The cases of the leak rule (testprogs/leakrule, docs/limitations.md
// "Leaks"): gosct's verdict on each is the one its leak.json expects. The
// comparison with goleak and Go's own detector is go run
// ./tools/leakdiff.
func TestE2ELeakRule(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testprogs"))
	dirs, _ := filepath.Glob(filepath.Join(root, "leakrule", "*", "leak.json"))
	if len(dirs) == 0 {
		t.Skip("no testprogs/leakrule")
	}
	expect := map[string]bool{}
	for _, f := range dirs {
		var v struct {
			Expect map[string]bool `json:"expect"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		expect["github.com/gosct/gosct/testprogs/leakrule/"+filepath.Base(filepath.Dir(f))] = v.Expect["gosct"]
	}
	// --races off: the cases are about leaks; some also race (the
	// finalizer janitor's test writes the map the janitor clears).
	r := runGosct(t, root, "test", "--json", "--seed", "1", "--schedules", "200", "--budget", "20s", "--races", "off",
		"--trace-dir", t.TempDir(), "./leakrule/...", "--", "-timeout", "300s")
	if r.code != exitBug {
		t.Fatalf("want exit %d:\n%s", exitBug, r)
	}
	leaked, tested := map[string]bool{}, map[string]bool{}
	for _, l := range jsonLines(t, r.stdout) {
		pkg, _ := l["package"].(string)
		switch l["event"] {
		case "test":
			tested[pkg] = true
		case "bug":
			// A lock cycle is found while the test runs: a (partial)
			// deadlock, whose goroutines are leaked as well.
			if l["kind"] != "leak" && l["kind"] != "deadlock" {
				t.Errorf("%s: a %v bug: %v", pkg, l["kind"], l["message"])
			}
			leaked[pkg] = true
		}
	}
	for pkg, want := range expect {
		if !tested[pkg] {
			t.Errorf("%s: not tested", pkg)
			continue
		}
		if leaked[pkg] != want {
			t.Errorf("%s: leak reported %v, want %v", strings.TrimPrefix(pkg, "github.com/gosct/gosct/testprogs/"), leaked[pkg], want)
		}
	}
}
