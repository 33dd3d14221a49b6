// Command sincemeasure measures `gosct test --since` against a full run
// (docs/results.md): it builds the history of internal/sincehist in a
// temporary directory and, for each of its branches, runs
//
//	gosct test --json --seed S --since main ./...   (pairwise, the tests the change reaches)
//	gosct test --json --seed S ./...                (the default strategy, every test)
//
// side by side, and prints a Markdown table: the bug each found, the
// schedules each ran, their wall-clock times (loading, analysis and
// building included, with the build cache warmed by a one-schedule run
// first) and the ratios.
//
//	go run ./internal/sincemeasure [-seed 1] [-rounds 1]
//
// Run it from the repository root: it builds gosct from ./cmd/gosct.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/sincehist"
)

type run struct {
	bug       string // "kind in Test", "" if none
	schedules int
	wall      time.Duration
	since     string
	status    int
}

func gosct(bin, dir string, args ...string) run {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var r run
	t := time.Now()
	out, err := cmd.Output()
	r.wall = time.Since(t)
	if ee, ok := err.(*exec.ExitError); ok {
		r.status = ee.ExitCode()
	} else if err != nil {
		fmt.Fprintf(os.Stderr, "gosct: %v\n", err)
		os.Exit(2)
	}
	if r.status > 1 {
		fmt.Fprintf(os.Stderr, "gosct %s: exit %d\n%s", strings.Join(args, " "), r.status, out)
		os.Exit(2)
	}
	for _, l := range strings.Split(string(out), "\n") {
		var e map[string]any
		if json.Unmarshal([]byte(l), &e) != nil {
			continue
		}
		switch e["event"] {
		case "bug":
			if r.bug == "" {
				r.bug = fmt.Sprintf("%v in %v", e["kind"], e["test"])
			}
		case "summary":
			if n, ok := e["schedules"].(float64); ok {
				r.schedules = int(n)
			}
		case "since":
			r.since, _ = e["message"].(string)
		}
	}
	return r
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func main() {
	seed := flag.Int("seed", 1, "the seed of every run")
	rounds := flag.Int("rounds", 1, "runs of each command per branch (the median wall time is printed)")
	only := flag.String("only", "", "comma-separated branches to measure (default: all)")
	flag.Parse()
	tmp, err := os.MkdirTemp("", "sincemeasure-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "gosct")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/gosct").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gosct: %v\n%s", err, out)
		os.Exit(2)
	}
	repo := filepath.Join(tmp, "jobs")
	if err := sincehist.Build(repo); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s := fmt.Sprint(*seed)
	fmt.Printf("| branch | bug introduced | `--since main` found | schedules | wall | full run found | schedules | wall | schedules ratio | wall ratio |\n")
	fmt.Printf("|---|---|---|---:|---:|---|---:|---:|---:|---:|\n")
	var notes []string
	for _, c := range sincehist.Commits {
		if *only != "" && !strings.Contains(","+*only+",", ","+c.Branch+",") {
			continue
		}
		if out, err := exec.Command("git", "-C", repo, "checkout", "-q", c.Branch).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "checkout %s: %v\n%s", c.Branch, err, out)
			os.Exit(2)
		}
		// Warm the build cache: both commands build the same
		// instrumented packages, and the first to run would pay.
		gosct(bin, repo, "test", "--json", "--seed", s, "--schedules", "1", "./...")
		var sr, fr run
		var sw, fw []time.Duration
		for i := 0; i < *rounds; i++ {
			args := append([]string{"test", "--json", "--seed", s}, c.Flags...)
			sr = gosct(bin, repo, append(args, "--since", "main", "./...")...)
			fr = gosct(bin, repo, append(args, "./...")...)
			sw, fw = append(sw, sr.wall), append(fw, fr.wall)
		}
		want := c.Bug
		if len(c.Flags) > 0 {
			want += " (" + strings.Join(c.Flags, " ") + ")"
		}
		if want == "" {
			want = "none (sequential change)"
		}
		fmt.Printf("| %s | %s | %s | %d | %.1fs | %s | %d | %.1fs | %s | %.2f |\n", c.Branch, want, orNone(sr.bug), sr.schedules, median(sw).Seconds(),
			orNone(fr.bug), fr.schedules, median(fw).Seconds(), ratio(sr.schedules, fr.schedules), median(sw).Seconds()/median(fw).Seconds())
		notes = append(notes, fmt.Sprintf("- %s: %s", c.Branch, sr.since))
	}
	fmt.Println()
	fmt.Println(strings.Join(notes, "\n"))
}

func orNone(s string) string {
	if s == "" {
		return "no bug"
	}
	return s
}

func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(a)/float64(b))
}
