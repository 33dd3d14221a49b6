package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// StateFormat is the version of the saved-state files.
const StateFormat = 1

// State is a test function's saved exploration: a file per package and test
// in Config.State, written between two executions. It holds the options
// the search was created with (a saved search is only meaningful to a
// strategy of the same name and options), how far the exploration got, and
// the strategy's own state (strategies.Saver).
type State struct {
	Format   int    `json:"format"`
	Package  string `json:"package"`
	Test     string `json:"test"`
	Strategy string `json:"strategy"`
	Seed     int64  `json:"seed"`
	Bound    int    `json:"bound,omitempty"`
	Depth    int    `json:"depth,omitempty"`
	States   bool   `json:"states,omitempty"`
	Races    string `json:"races,omitempty"`
	// Shard, Shards and Total are those of a part of a sharded search
	// (Config): a part resumes only as the same part of the same search.
	// Total is set for a range of schedule numbers only: a part of a tree
	// does not depend on it.
	Shard  int `json:"shard,omitempty"`
	Shards int `json:"shards,omitempty"`
	Total  int `json:"total,omitempty"`
	// TimerEarly and LeakGrace are Config's, as given.
	TimerEarly string `json:"timer_early,omitempty"`
	LeakGrace  string `json:"leak_grace,omitempty"`
	// Schedules explored by every run so far: the next one is number
	// Schedules+1.
	Schedules int `json:"schedules"`
	// Bugs found by every run so far, and their keys: a resumed search
	// reports only bugs it had not found.
	Bugs int      `json:"bugs"`
	Keys []string `json:"keys,omitempty"`
	// Exhausted: the search has nothing left to explore.
	Exhausted bool `json:"exhausted,omitempty"`
	// Running: saved before schedule number Schedules ran (per-process
	// mode), and not saved again after it: if this is what a process
	// finds, that schedule ended its process.
	Running bool `json:"running,omitempty"`
	// Search is the strategy's saved state.
	Search json.RawMessage `json:"search"`
	// Gaps counts the schedules of every run so far that depended on
	// what no decision chose: the search is then no proof.
	Gaps *Gaps `json:"gaps,omitempty"`
}

// Gaps counts the schedules that depended on what no decision of the
// strategy chose (runtime/proof.go).
type Gaps struct {
	Uncontrolled int `json:"uncontrolled,omitempty"` // code outside gosct's control ran
	Fair         int `json:"fair,omitempty"`         // the fair scheduler took steps
	Early        int `json:"early,omitempty"`        // a timer could fire early, not offered
	Values       int `json:"values,omitempty"`       // a value drawn from the seed was read
	Drawn        int `json:"drawn,omitempty"`        // the sources of those values (the runtime's set)
}

// StatePath is the file of the saved state of test in package pkg.
func StatePath(dir, pkg, test string) string {
	return filepath.Join(dir, fileName(pkg)+"-"+fileName(test)+".json")
}

func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// ReadState reads a saved state; nil and no error when there is none.
func ReadState(path string) (*State, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read saved state: %v", err)
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s is not a gosct saved state: %v", path, err)
	}
	if s.Format <= 0 || s.Format > StateFormat {
		return nil, fmt.Errorf("%s has saved-state format %d; this gosct reads format %d", path, s.Format, StateFormat)
	}
	return &s, nil
}

// Mismatch says how the options of c differ from those the state was saved
// with ("" when they agree): the strategy's state is only meaningful to a
// strategy of the same name and options, exploring the same scheduling
// points.
func (s *State) Mismatch(c *Config) string {
	var diffs []string
	if s.Strategy != c.Strategy {
		diffs = append(diffs, fmt.Sprintf("strategy %s, not %s", s.Strategy, c.Strategy))
	}
	if s.Seed != c.Seed {
		diffs = append(diffs, fmt.Sprintf("seed %d, not %d", s.Seed, c.Seed))
	}
	if s.Bound != c.Bound {
		diffs = append(diffs, fmt.Sprintf("bound %d, not %d", s.Bound, c.Bound))
	}
	if s.Depth != c.Depth {
		diffs = append(diffs, fmt.Sprintf("depth %d, not %d", s.Depth, c.Depth))
	}
	if s.States != c.States {
		diffs = append(diffs, fmt.Sprintf("states %v, not %v", s.States, c.States))
	}
	if racesMode(s.Races) != racesMode(c.Races) {
		diffs = append(diffs, fmt.Sprintf("races %s, not %s", racesMode(s.Races), racesMode(c.Races)))
	}
	if s.Shard != c.Shard || s.Shards != c.Shards {
		diffs = append(diffs, fmt.Sprintf("%s, not %s", shardName(s.Shard, s.Shards), shardName(c.Shard, c.Shards)))
	} else if s.Shards > 1 && s.Total != 0 && s.Total != c.Total {
		diffs = append(diffs, fmt.Sprintf("a divided search of %d schedules, not %d", s.Total, c.Total))
	}
	if s.TimerEarly != c.TimerEarly {
		diffs = append(diffs, fmt.Sprintf("early timers %q, not %q", s.TimerEarly, c.TimerEarly))
	}
	if s.LeakGrace != c.LeakGrace {
		diffs = append(diffs, fmt.Sprintf("leak grace %q, not %q", s.LeakGrace, c.LeakGrace))
	}
	return strings.Join(diffs, ", ")
}

// shardName is "part 2 of 8", or "the whole search".
func shardName(shard, shards int) string {
	if shards <= 1 {
		return "the whole search"
	}
	return fmt.Sprintf("part %d of %d", shard, shards)
}

func racesMode(r string) string {
	if r == "" {
		return "off"
	}
	return r
}

// WriteState writes s to path atomically: a temporary file in the same
// directory renamed into place, so a process killed in the middle (by a
// timeout, an interrupt) leaves the previous state whole. (A crash of the
// machine may leave it empty: ReadState then says it is not a state.)
func WriteState(path string, s *State) error {
	s.Format = StateFormat
	b, err := json.MarshalIndent(s, "", "\t")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(b, '\n'))
}

func writeFileAtomic(path string, b []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// No fsync: the rename already makes the file whole or absent for a
	// process killed at any point, which is what a saved search must
	// survive; syncing would double the cost of a schedule per process.
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing saved state %s: %v", path, err)
	}
	return nil
}
