package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The examples of docs/examples are copied by users into their clusters and
// workflows: they must parse, and the gosct commands in them must be
// commands gosct accepts, dividing one search among as many shards as the
// engine runs.

func readYAML(t *testing.T, name string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	var docs []map[string]any
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, d)
	}
	return docs
}

// get walks a parsed YAML document: keys of maps, indices of lists.
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("no %q in %v", k, v)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("no item %d in %v", k, v)
			}
			v = l[k]
		}
	}
	return v
}

// gosctCommands returns the gosct command lines of a shell script, cut at
// the shell's || and ;, with ${{ ... }} expressions replaced by vars.
func gosctCommands(script string, vars map[string]string) [][]string {
	var out [][]string
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		for k, v := range vars {
			line = strings.ReplaceAll(line, k, v)
		}
		if i := strings.Index(line, "||"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "gosct" {
			for i := range f {
				f[i] = strings.Trim(f[i], `"`)
			}
			out = append(out, f[1:])
		}
	}
	return out
}

func TestExampleKubernetes(t *testing.T) {
	docs := readYAML(t, "kubernetes-shards.yaml")
	var shards, merge map[string]any
	for _, d := range docs {
		if d["kind"] == "Job" {
			switch get(t, d, "metadata", "name") {
			case "gosct-shards":
				shards = d
			case "gosct-merge":
				merge = d
			}
		}
	}
	if shards == nil || merge == nil {
		t.Fatal("no Job gosct-shards and gosct-merge")
	}
	if get(t, shards, "spec", "completionMode") != "Indexed" {
		t.Fatal("the shards' Job is not an Indexed Job: pods get no JOB_COMPLETION_INDEX")
	}
	n := get(t, shards, "spec", "completions").(int)
	if get(t, shards, "spec", "parallelism").(int) != n {
		t.Error("parallelism differs from completions: shards would wait for each other")
	}
	c := get(t, shards, "spec", "template", "spec", "containers", 0)
	seed := get(t, c, "env", 0, "value").(string)
	cmds := gosctCommands(get(t, c, "command", 2).(string), map[string]string{"$GOSCT_SEED": seed})
	if len(cmds) != 1 || cmds[0][0] != "test" {
		t.Fatalf("the shards run %q, want one gosct test", cmds)
	}
	for k := 0; k < n; k++ {
		t.Setenv(envK8sIndex, itoa(k))
		o, err := parseTest(cmds[0][1:])
		if err != nil {
			t.Fatalf("gosct %s: %v", strings.Join(cmds[0], " "), err)
		}
		if o.shardIndex != k+1 || o.shards != n || !o.seedSet || o.results != "/results" {
			t.Fatalf("pod %d: shard %d/%d, seed set %v, results %q; want %d/%d into /results", k, o.shardIndex, o.shards, o.seedSet, o.results, k+1, n)
		}
	}
	mounted := func(c any) bool {
		for _, m := range get(t, c, "volumeMounts").([]any) {
			if get(t, m, "mountPath") == "/results" {
				return true
			}
		}
		return false
	}
	mc := get(t, merge, "spec", "template", "spec", "containers", 0)
	if !mounted(c) || !mounted(mc) {
		t.Fatal("the shards and the merge do not share /results")
	}
	mcmds := gosctCommands(get(t, mc, "command", 2).(string), nil)
	if len(mcmds) != 1 || mcmds[0][0] != "merge" || mcmds[0][len(mcmds[0])-1] != "/results" || !contains(mcmds[0], "--watch") {
		t.Fatalf("the merge runs %q, want gosct merge --watch ... /results", mcmds)
	}
}

func TestExampleGitHubActions(t *testing.T) {
	docs := readYAML(t, "github-actions-shards.yml")
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	wf := docs[0]
	shard := get(t, wf, "jobs", "shard")
	if get(t, shard, "strategy", "fail-fast") != false {
		t.Error("fail-fast: a shard's bug would cancel the others")
	}
	matrix := get(t, shard, "strategy", "matrix", "shard").([]any)
	n := len(matrix)
	var test []string
	for _, st := range get(t, shard, "steps").([]any) {
		if run, ok := st.(map[string]any)["run"].(string); ok {
			for _, c := range gosctCommands(run, map[string]string{"${{ matrix.shard }}": "@", "${{ github.run_id }}": "4242"}) {
				if c[0] == "test" {
					test = c
				}
			}
		}
	}
	if test == nil {
		t.Fatal("the shard job runs no gosct test")
	}
	for k, v := range matrix {
		args := strings.Split(strings.ReplaceAll(strings.Join(test[1:], "\x00"), "@", itoa(v.(int))), "\x00")
		o, err := parseTest(args)
		if err != nil {
			t.Fatalf("gosct %s: %v", strings.Join(args, " "), err)
		}
		if o.shardIndex != k+1 || o.shards != n || !o.seedSet || o.results == "" {
			t.Fatalf("matrix entry %d: shard %d/%d, seed set %v, results %q", k, o.shardIndex, o.shards, o.seedSet, o.results)
		}
	}
	merge := get(t, wf, "jobs", "merge")
	if get(t, merge, "needs") != "shard" || !strings.Contains(get(t, merge, "if").(string), "!cancelled()") {
		t.Error("the merge must wait for the shards, and run when one found a bug")
	}
	found := false
	for _, st := range get(t, merge, "steps").([]any) {
		m := st.(map[string]any)
		if run, ok := m["run"].(string); ok {
			for _, c := range gosctCommands(run, nil) {
				if c[0] == "merge" {
					found = true
				}
			}
		}
		if m["uses"] == "actions/download-artifact@v4" && get(t, m, "with", "merge-multiple") != true {
			t.Error("the artifacts are not downloaded side by side")
		}
	}
	if !found {
		t.Fatal("the merge job runs no gosct merge")
	}
}
