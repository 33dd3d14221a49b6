package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// DefaultSchedules is the full benchmark's schedule limit per run, chosen
// so that the whole benchmark finishes within 30 minutes on a 2-core
// machine: with 9 strategies on 148 programs and fixed twins, measured 17
// min at 30,000 (11 min at 10,000), most of it in runs that hit the
// budget. The 23 SCTBench fixed twins benchmarked since (171 programs)
// took 17 min more at --budget 20s, 44 of their 207 runs stopped by the
// budget.
const DefaultSchedules = 30000

// DefaultBudget bounds one run, so that a few slow programs cannot take
// the benchmark past its 30 minutes.
const DefaultBudget = 10 * time.Second

// DefaultMinimize is gosct test's --minimize default.
const DefaultMinimize = 5 * time.Second

// Main is the gosct-bench command: it returns the exit status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("gosct-bench", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "testprogs", "the corpus directory")
	strats := fs.String("strategies", strings.Join(DefaultStrategies(), ","), "comma-separated strategies (pct1..pct3 are PCT with depth d)")
	schedules := fs.Int("schedules", DefaultSchedules, "schedule limit per run")
	seed := fs.Int64("seed", 1, "seed of every run")
	budget := fs.Duration("budget", DefaultBudget, "wall-clock budget per run (0: none)")
	jobs := fs.Int("jobs", 2, "test binaries run at once (each is nearly single-threaded: the runtime runs one goroutine at a time)")
	races := fs.String("races", "auto", "race reports: off, report, or auto (on for Go-specific programs, off for SCTBench ports)")
	programs := fs.String("programs", "", "regexp selecting programs by directory (a fixed twin is selected with its buggy program)")
	skip := fs.String("skip", "", "regexp of program directories to leave out (with their fixed twins)")
	out := fs.String("out", "docs/results.md", "markdown file to write (\"\": none)")
	raw := fs.String("raw", "", "also write the raw results as JSON to this file")
	from := fs.String("from", "", "render the raw results of an earlier run instead of running")
	check := fs.Bool("check", false, "exit 1 if any run misses a known bug, reports a bug on a fixed program, or fails")
	covers := fs.String("covers", "", "a:b,...: exit 1 if strategy b misses a bug strategy a finds (e.g. dfs:dpor)")
	onlyBuggy := fs.Bool("buggy-only", false, "run the buggy programs only, not their fixed twins")
	exhaustion := fs.String("exhaustion", "", "write the partial-order reduction section (dfs, dpor, dpor-states) into this markdown file, between its markers, leaving the rest of it")
	notes := fs.String("notes", "bench/reading.md", "markdown appended to the report (the reading of the figures); missing file: none")
	quiet := fs.BoolP("quiet", "q", false, "no per-run log on stderr")
	minimize := fs.Duration("minimize", DefaultMinimize, "how long to shrink each bug's schedule, as gosct test --minimize (0: not shrunk)")
	minimizedOnly := fs.Bool("minimized-section", false, "run the buggy programs only, each strategy stopping at its first bug, and write only the 'Minimized schedules' section of --out (the rest of the file is kept)")
	seeds := fs.Int("seeds", 0, "run every strategy once per seed (--seed, --seed+1, ...), stopping at the first bug, and write the medians as a section of --out")
	section := fs.String("section", "seeds", "with --seeds: the name of the section of --out to write (other sections and the rest of the file are kept)")
	title := fs.String("title", "Schedules to the first bug, median over seeds", "with --seeds: the section's heading")
	timerEarly := fs.String("timer-early", "", "the runtime's early-firing window for timers (gosct test --timer-early; default its own)")
	stepCost := fs.String("step-cost", "", "a uniform virtual time every scheduling step costs, instead of Go's (default: Go's costs, measured; for measuring the time model)")
	leakGrace := fs.String("leak-grace", "", "gosct test --leak-grace (default the runtime's)")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "gosct-bench: %v\n", err)
		return 2
	}
	st, err := ParseStrategies(*strats)
	if err != nil {
		return fail(err)
	}
	pairs, err := ParseCovers(*covers, st)
	if err != nil {
		return fail(err)
	}
	var sel *regexp.Regexp
	if *programs != "" {
		if sel, err = regexp.Compile(*programs); err != nil {
			return fail(err)
		}
	}
	absRoot, err := filepath.Abs(*root)
	if err != nil {
		return fail(err)
	}
	all, err := Load(absRoot)
	if err != nil {
		return fail(err)
	}
	ps := Select(all, sel)
	if *minimizedOnly {
		ps = buggyOnly(ps)
		for i := range st {
			st[i].CountBuggy = false
		}
	}
	if *skip != "" {
		re, err := regexp.Compile(*skip)
		if err != nil {
			return fail(err)
		}
		drop := map[string]bool{}
		for _, p := range Select(all, re) {
			drop[p.Dir] = true
		}
		kept := ps[:0]
		for _, p := range ps {
			if !drop[p.Dir] {
				kept = append(kept, p)
			}
		}
		ps = kept
	}
	if *onlyBuggy {
		ps = slices.DeleteFunc(ps, (*Program).IsFixed)
	}
	if len(ps) == 0 {
		return fail(fmt.Errorf("no program matches %q", *programs))
	}
	if *seeds > 0 {
		var sr *SeedReport
		if *from != "" {
			// Render a seeds run saved with --raw into --out.
			b, err := os.ReadFile(*from)
			if err != nil {
				return fail(err)
			}
			sr = &SeedReport{}
			if err := json.Unmarshal(b, sr); err != nil {
				return fail(err)
			}
			sr.Command = withFlag(sr.Command, "--out", *out)
		} else {
			c := Config{Root: absRoot, Strategies: st, Schedules: *schedules, Seed: *seed, Budget: *budget, Jobs: *jobs, Races: *races}
			if !*quiet {
				c.Log = stderr
			}
			start := time.Now()
			sr, err = RunSeeds(ctx, c, ps, *seeds)
			if err != nil {
				return fail(err)
			}
			sr.WallS = time.Since(start).Seconds()
			sr.Section, sr.Machine = *section, Machine()
			sr.Command = "go run ./cmd/gosct-bench " + shellJoin(args)
		}
		if *raw != "" {
			b, _ := json.MarshalIndent(sr, "", " ")
			if err := os.WriteFile(*raw, b, 0o644); err != nil {
				return fail(err)
			}
		}
		var md strings.Builder
		sr.Markdown(&md)
		if *out != "" {
			old, err := os.ReadFile(*out)
			if err != nil && !os.IsNotExist(err) {
				return fail(err)
			}
			doc := putSection(string(old), *section, *title, md.String())
			if err := os.WriteFile(*out, []byte(doc), 0o644); err != nil {
				return fail(err)
			}
		}
		fmt.Fprint(stdout, md.String())
		return 0
	}
	rep := &Report{
		Programs: ps, Strategies: st, Schedules: *schedules, Seed: *seed, Budget: *budget, Jobs: *jobs,
		Command: "go run ./cmd/gosct-bench " + shellJoin(args),
		Machine: Machine(),
	}
	if *from != "" {
		b, err := os.ReadFile(*from)
		if err != nil {
			return fail(err)
		}
		if err := json.Unmarshal(b, rep); err != nil {
			return fail(err)
		}
		rep.Programs, rep.Strategies = ps, st
		for _, r := range rep.List {
			checkStop(r, rep.Budget, rep.Schedules)
		}
	} else {
		c := Config{Root: absRoot, Strategies: st, Schedules: *schedules, Seed: *seed, Budget: *budget, Jobs: *jobs, Races: *races, Minimize: *minimize,
			TimerEarly: *timerEarly, StepCost: *stepCost, LeakGrace: *leakGrace}
		if !*quiet {
			c.Log = stderr
		}
		start := time.Now()
		rep.Started = start.UTC().Format(time.RFC3339)
		rs, err := Run(ctx, c, ps)
		if err != nil {
			return fail(err)
		}
		rep.WallS = time.Since(start).Seconds()
		rep.List = rs.List()
	}
	rep.results = FromList(rep.List)
	if b, err := os.ReadFile(*notes); err == nil {
		rep.Notes = string(b)
	}
	if *raw != "" {
		b, _ := json.MarshalIndent(rep, "", " ")
		if err := os.WriteFile(*raw, b, 0o644); err != nil {
			return fail(err)
		}
	}
	if *out != "" && *minimizedOnly {
		if err := rep.writeMinimizedSection(*out); err != nil {
			return fail(err)
		}
		*out = ""
	}
	if *out != "" {
		// The sections seeds mode wrote stay, before the reading.
		old, _ := os.ReadFile(*out)
		var md strings.Builder
		rep.Markdown(&md)
		doc := md.String()
		for _, sec := range sections(string(old)) {
			doc = addSection(doc, sec)
		}
		if err := os.WriteFile(*out, []byte(doc), 0o644); err != nil {
			return fail(err)
		}
	}
	if *exhaustion != "" {
		rep.source = fmt.Sprintf("Generated by `%s` on %s", strings.TrimSpace(rep.Command), rep.Machine)
		if rep.Started != "" {
			rep.source += fmt.Sprintf(", started %s, %.0f s wall", rep.Started, rep.WallS)
		}
		rep.source += "; do not edit by hand, rerun it."
		if err := writeSection(*exhaustion, exhaustionBegin, exhaustionEnd, rep.Notes, rep.Exhaustion); err != nil {
			return fail(err)
		}
	}
	rep.Summary(stdout)
	failed := false
	for _, pr := range pairs {
		missed, unchecked := rep.Covers(pr[0], pr[1])
		for _, m := range missed {
			fmt.Fprintf(stdout, "CHECK FAILED: %s\n", m)
			failed = true
		}
		for _, m := range unchecked {
			fmt.Fprintf(stdout, "not checked: %s\n", m)
		}
	}
	if failed && !*check {
		return 1
	}
	if *check {
		problems := rep.Check()
		for _, p := range problems {
			fmt.Fprintf(stdout, "CHECK FAILED: %s\n", p)
		}
		if len(problems) > 0 || failed {
			return 1
		}
	}
	return 0
}

// shellJoin joins args into a command line a shell reads back: arguments
// with spaces or shell metacharacters are single-quoted.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"|()&;<>*?$`\\[]{}!#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// withFlag returns the command line cmd with the value of flag (given as
// "--flag value") replaced, or the flag added.
func withFlag(cmd, flag, value string) string {
	f := strings.Fields(cmd)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == flag {
			f[i+1] = value
			return strings.Join(f, " ")
		}
	}
	return cmd + " " + flag + " " + value
}

// Select keeps the programs whose directory matches re, with the fixed
// twins of the buggy ones kept; nil re keeps all.
func Select(ps []*Program, re *regexp.Regexp) []*Program {
	if re == nil {
		return ps
	}
	keep := map[string]bool{}
	for _, p := range ps {
		if re.MatchString(p.Dir) {
			keep[p.Dir] = true
			if p.Fixed != "" {
				keep[filepath.ToSlash(filepath.Clean(p.Fixed))] = true
			}
		}
	}
	var out []*Program
	for _, p := range ps {
		if keep[p.Dir] {
			out = append(out, p)
		}
	}
	return out
}

// Machine describes the machine the benchmark runs on.
func Machine() string {
	model := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				if i := strings.Index(l, ":"); i >= 0 {
					model = strings.TrimSpace(l[i+1:])
				}
				break
			}
		}
	}
	s := fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	if model != "" {
		s = model + ", " + s
	}
	return s
}
