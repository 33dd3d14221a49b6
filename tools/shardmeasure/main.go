// Command shardmeasure measures what dividing a search among shards gains
// (docs/performance.md): it runs the same gosct test as one process and as
// N shards started together on this machine, then merges the shards, in
// alternating rounds, and prints the wall-clock times, the exploration
// times and their ratios.
//
//	go run ./tools/shardmeasure [-n 2] [-rounds 3] DIR -- GOSCT-TEST-ARGS...
//
// DIR is the module to run in; the arguments are gosct test's, without
// --json, --shard and --results.
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
	"sync"
	"time"
)

type summary struct {
	Schedules int     `json:"schedules"`
	ExploreS  float64 `json:"explore_s"`
	Exhausted int     `json:"exhausted_tests"`
}

func gosct(bin, dir string, args ...string) (summary, time.Duration) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	t := time.Now()
	out, err := cmd.Output()
	d := time.Since(t)
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		fmt.Fprintf(os.Stderr, "gosct %s: %v\n%s", strings.Join(args, " "), err, out)
		os.Exit(2)
	}
	var s summary
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	json.Unmarshal([]byte(lines[len(lines)-1]), &s)
	return s, d
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

func main() {
	n := flag.Int("n", 2, "shards")
	rounds := flag.Int("rounds", 3, "rounds, one process and the shards in turn")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: shardmeasure [-n 2] [-rounds 3] DIR -- GOSCT-TEST-ARGS...")
		os.Exit(2)
	}
	dir, args := flag.Arg(0), flag.Args()[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	tmp, err := os.MkdirTemp("", "shardmeasure-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "gosct")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/gosct").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gosct: %v\n%s", err, out)
		os.Exit(2)
	}
	gosct(bin, dir, append([]string{"test", "--json"}, args...)...) // warm the build cache
	var wallRatio, exploreRatio []float64
	for r := 1; r <= *rounds; r++ {
		one, oneWall := gosct(bin, dir, append([]string{"test", "--json"}, args...)...)
		res := filepath.Join(tmp, fmt.Sprint("round", r))
		var wg sync.WaitGroup
		start := time.Now()
		for i := 1; i <= *n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				gosct(bin, dir, append([]string{"test", "--json", "--shard", fmt.Sprintf("%d/%d", i, *n), "--results", res}, args...)...)
			}(i)
		}
		wg.Wait()
		merged, _ := gosct(bin, dir, "merge", "--json", res)
		shardsWall := time.Since(start)
		wr, er := oneWall.Seconds()/shardsWall.Seconds(), one.ExploreS/merged.ExploreS
		wallRatio, exploreRatio = append(wallRatio, wr), append(exploreRatio, er)
		fmt.Printf("round %d: one process %d schedules, wall %.2fs, exploring %.2fs; %d shards %d schedules, wall %.2fs (merge included), slowest shard exploring %.2fs; speed-up wall %.2f, exploring %.2f\n",
			r, one.Schedules, oneWall.Seconds(), one.ExploreS, *n, merged.Schedules, shardsWall.Seconds(), merged.ExploreS, wr, er)
		if one.Schedules != merged.Schedules {
			fmt.Printf("round %d: the merged shards ran %d schedules, one process %d\n", r, merged.Schedules, one.Schedules)
		}
	}
	fmt.Printf("median speed-up of %d shards over %d rounds: wall %.2f, exploring %.2f\n", *n, *rounds, median(wallRatio), median(exploreRatio))
}
