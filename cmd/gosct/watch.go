package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// gosct merge --watch: the shards write their progress.json every second
// (results.go); the watcher reads them all, draws one line per shard and a
// total, and returns when every shard is done, or has not changed its file
// for --stale (a machine that died), or on an interrupt. On a terminal the
// lines are redrawn in place; elsewhere (a CI log, kubectl logs) a line is
// printed when a shard finishes, and the total every 30 seconds.

// watched is what the watcher knows of one shard.
type watched struct {
	dir     string
	prog    shardProgress
	raw     []byte
	changed time.Time // when the watcher last saw the file change
	stale   bool
}

func watchShards(ctx context.Context, o *mergeOptions, w io.Writer) {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = isTerminal(f)
	}
	shards := map[string]*watched{}
	start := time.Now()
	drawn, lastLog, doneLogged := 0, time.Time{}, map[string]bool{}
	tick := time.NewTicker(o.interval)
	defer tick.Stop()
	for {
		now := time.Now()
		dirs, _ := findShardDirs(o.dirs)
		for _, d := range dirs {
			s := shards[d]
			if s == nil {
				s = &watched{dir: d, changed: now}
				shards[d] = s
			}
			b, err := os.ReadFile(filepath.Join(d, progressFile))
			if err != nil || bytes.Equal(b, s.raw) {
				s.stale = !s.prog.Done && now.Sub(s.changed) > o.stale
				continue
			}
			var p shardProgress
			if json.Unmarshal(b, &p) == nil {
				s.raw, s.prog, s.changed, s.stale = b, p, now, false
			}
		}
		total, finished, over := watchTotals(shards)
		if !over && now.Sub(start) > o.stale && finished == len(shards) {
			// The shards that have not started (or never will) are
			// waited for as long as a stale one.
			over = true
		}
		lines := watchLines(shards, total, now)
		if tty {
			if drawn > 0 {
				fmt.Fprintf(w, "\x1b[%dA", drawn)
			}
			for _, l := range lines {
				fmt.Fprintf(w, "\r\x1b[K%s\n", l)
			}
			drawn = len(lines)
		} else {
			for _, s := range sortedWatched(shards) {
				if (s.prog.Done || s.stale) && !doneLogged[s.dir] {
					doneLogged[s.dir] = true
					fmt.Fprintf(w, "gosct: %s\n", watchLine(s, now))
				}
			}
			if now.Sub(lastLog) >= 30*time.Second || over {
				lastLog = now
				fmt.Fprintf(w, "gosct: %s\n", lines[len(lines)-1])
			}
		}
		if over || ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// watchTotals returns the number of shards of the search (0 until one is
// seen), how many are finished (done or stale), and whether that is all.
func watchTotals(shards map[string]*watched) (total, finished int, over bool) {
	for _, s := range shards {
		if s.prog.Shards > total {
			total = s.prog.Shards
		}
		if s.prog.Done || s.stale {
			finished++
		}
	}
	return total, finished, total > 0 && finished >= total
}

func sortedWatched(shards map[string]*watched) []*watched {
	var out []*watched
	for _, s := range shards {
		out = append(out, s)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].prog.Shard < out[j-1].prog.Shard || out[j].prog.Shard == out[j-1].prog.Shard && out[j].dir < out[j-1].dir); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// watchLines is one line per shard and the total.
func watchLines(shards map[string]*watched, total int, now time.Time) []string {
	var lines []string
	schedules, bugs, done, rate := 0, 0, 0, 0.0
	for _, s := range sortedWatched(shards) {
		lines = append(lines, watchLine(s, now))
		schedules += s.prog.Schedules
		bugs += s.prog.Bugs
		if s.prog.Done {
			done++
		} else if el := s.prog.Updated.Sub(s.prog.Started).Seconds(); el > 0 && !s.stale {
			rate += float64(s.prog.Schedules) / el
		}
	}
	t := fmt.Sprintf("all: %d of %d shards done, %d schedules, %d bug%s", done, total, schedules, bugs, plural(bugs))
	if rate > 0 {
		t += fmt.Sprintf(", %.0f schedules/s", rate)
	}
	if waiting := total - len(shards); waiting > 0 {
		t += fmt.Sprintf(", %d not started", waiting)
	}
	return append(lines, t)
}

func watchLine(s *watched, now time.Time) string {
	p := s.prog
	if p.Shards == 0 {
		return fmt.Sprintf("%s  starting", filepath.Base(s.dir))
	}
	state := "running"
	switch {
	case p.Done:
		state = "done"
	case s.stale:
		state = fmt.Sprintf("no progress for %s", now.Sub(s.changed).Round(time.Second))
	}
	l := fmt.Sprintf("shard %d/%d  %-7s  %d/%d tests  %d schedules", p.Shard, p.Shards, state, p.TestsDone, p.Tests, p.Schedules)
	if el := p.Updated.Sub(p.Started).Seconds(); el > 0 {
		l += fmt.Sprintf("  %s/s", rate(p.Schedules, el))
	}
	l += fmt.Sprintf("  %d bug%s", p.Bugs, plural(p.Bugs))
	if p.Errors > 0 {
		l += fmt.Sprintf("  %d error%s", p.Errors, plural(p.Errors))
	}
	if p.Test != "" && !p.Done {
		l += "  " + strings.TrimSpace(p.Package+" "+p.Test)
	}
	return l
}
