package strategies

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// savedDPOR is the file format of a saved DPOR search: its levels (goroutine
// ids and choice indices only: nothing in it depends on addresses, which
// differ from one execution to the next) and, for a part of a split search,
// the subtrees it has yet to explore.
type savedDPOR struct {
	Format   int        `json:"format"`
	Strategy string     `json:"strategy"`
	Bound    int        `json:"bound"`
	States   bool       `json:"states,omitempty"`
	Levels   []dlevel   `json:"levels"`
	Items    [][]dlevel `json:"items,omitempty"`
	Begun    bool       `json:"begun"`
	Done     bool       `json:"done"`
	// Running: saved after NewExecution, before its execution ended.
	Running      bool `json:"running,omitempty"`
	Runs         int  `json:"runs"`
	Blocked      int  `json:"blocked,omitempty"`
	Diverged     int  `json:"diverged,omitempty"`
	Unseen       int  `json:"unseen,omitempty"`
	Lost         int  `json:"lost,omitempty"`
	Uncontrolled int  `json:"uncontrolled,omitempty"`
	EarlyTimers  int  `json:"early_timers,omitempty"`
	Values       int  `json:"values,omitempty"`
	Clipped      bool `json:"clipped,omitempty"`
	MaxDepth     int  `json:"max_depth,omitempty"`
}

const dporFormat = 1

// Save writes the search state; call it between executions.
func (d *DPOR) Save(w io.Writer) error {
	return json.NewEncoder(w).Encode(savedDPOR{
		Format: dporFormat, Strategy: d.name, Bound: d.bound, States: d.states, Levels: d.levels, Items: d.items,
		Begun: d.begun, Done: d.done, Running: d.running, Runs: d.runs, Blocked: d.blocked,
		Diverged: d.diverged, Unseen: d.unseenRuns, Lost: d.lost, Uncontrolled: d.uncontrolled, EarlyTimers: d.earlyTimers, Values: d.valueRuns, Clipped: d.clipped, MaxDepth: d.maxDepth,
	})
}

// Load restores what Save wrote, into a DPOR made with the same options.
// A search saved while an execution ran (per-process mode, whose process
// then died) takes that execution as explored: its races are lost, which
// Status reports.
func (d *DPOR) Load(r io.Reader) error {
	var v savedDPOR
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		return fmt.Errorf("reading saved %s search: %v", d.name, err)
	}
	if v.Format != dporFormat {
		return fmt.Errorf("saved search has format %d, want %d", v.Format, dporFormat)
	}
	if v.Strategy != d.name {
		return fmt.Errorf("saved search is %q, not %q", v.Strategy, d.name)
	}
	if v.Bound != d.bound {
		return fmt.Errorf("saved %s search has bound %d, not %d", d.name, v.Bound, d.bound)
	}
	if v.States != d.states {
		return fmt.Errorf("saved %s search matches states: %v, not %v", d.name, v.States, d.states)
	}
	if err := checkLevels(v.Levels); err != nil {
		return fmt.Errorf("saved %s search: %v", d.name, err)
	}
	for _, it := range v.Items {
		if err := checkLevels(it); err != nil || len(it) == 0 {
			return fmt.Errorf("saved %s search: bad item", d.name)
		}
	}
	d.levels, d.items = v.Levels, v.Items
	d.begun, d.done, d.runs, d.blocked = v.Begun, v.Done, v.Runs, v.Blocked
	d.diverged, d.unseenRuns, d.lost, d.clipped, d.maxDepth = v.Diverged, v.Unseen, v.Lost, v.Clipped, v.MaxDepth
	d.uncontrolled, d.earlyTimers, d.valueRuns = v.Uncontrolled, v.EarlyTimers, v.Values
	d.running, d.pos = false, len(d.levels)
	d.lst, d.changed = nil, -1 // what the subtrees did is not saved
	if v.Running {
		d.lost++
	}
	return nil
}

func checkLevels(ls []dlevel) error {
	for i, l := range ls {
		bad := l.N < 1
		if l.Kind == Goroutine {
			// Chosen may be Clock (a timer fired early), the one
			// negative choice.
			bad = bad || l.Chosen < 0 && l.Chosen != Clock || len(l.Enabled) < 2 || !slices.Contains(l.Enabled, l.Chosen)
		} else {
			bad = bad || l.Chosen < 0 || l.Chosen >= l.N || l.Until < 0 || l.Until > l.N
		}
		if bad {
			return fmt.Errorf("bad level %d: %+v", i, l)
		}
	}
	return nil
}

// Split divides the work the search has left: every choice still to try
// at a level becomes a subtree (the schedule's prefix up to that level,
// then the choice), and the subtrees are dealt round-robin to n parts. In
// a subtree, the choices dealt elsewhere count as tried, so that no part
// explores another's subtree; the races a part finds may still send it
// to choices no part was dealt, and two parts may then both explore one,
// so the parts together explore every trace the search had left, some
// possibly twice.
func (d *DPOR) Split(n int) ([][]byte, error) {
	if n < 1 {
		return nil, fmt.Errorf("cannot split a search into %d parts", n)
	}
	if !d.begun {
		return nil, fmt.Errorf("the %s search has not started: run it once, then split it", d.name)
	}
	if d.running {
		return nil, fmt.Errorf("the %s search was saved before its schedule ran: resume it once, then split it", d.name)
	}
	parts := make([]*DPOR, n)
	for i := range parts {
		parts[i] = &DPOR{name: d.name, bound: d.bound, states: d.states, begun: true, done: d.done, blockedAt: -1, changed: -1, matchAt: -1,
			diverged: d.diverged, unseenRuns: d.unseenRuns, lost: d.lost, uncontrolled: d.uncontrolled, earlyTimers: d.earlyTimers, valueRuns: d.valueRuns, clipped: d.clipped, maxDepth: d.maxDepth}
	}
	parts[0].runs, parts[0].blocked = d.runs, d.blocked
	next := 0
	deal := func(it []dlevel) {
		parts[next].items = append(parts[next].items, it)
		next = (next + 1) % n
	}
	for _, it := range d.items {
		deal(it)
	}
	// The choices left at each level; then one subtree per choice.
	left := make([][]int, len(d.levels))
	for i := range d.levels {
		left[i] = d.left(&d.levels[i])
	}
	for i := range d.levels {
		for _, c := range left[i] {
			it := make([]dlevel, i+1)
			for j := 0; j <= i; j++ {
				it[j] = d.levels[j].closed(left[j])
			}
			lv := &it[i]
			if lv.Kind == Goroutine {
				lv.Done = append(lv.Done, tried{lv.Chosen, lv.Wild})
				lv.Done = slices.DeleteFunc(lv.Done, func(t tried) bool { return t.G == c })
				lv.Wild = false
				addOnce(&lv.Backtrack, c)
			} else {
				lv.Until = c + 1
			}
			lv.Chosen = c
			deal(it)
		}
	}
	out := make([][]byte, n)
	for i, p := range parts {
		var buf bytes.Buffer
		if err := p.Save(&buf); err != nil {
			return nil, err
		}
		out[i] = buf.Bytes()
	}
	return out, nil
}

// left returns the choices NewExecution would still try at lv.
func (d *DPOR) left(lv *dlevel) []int {
	var out []int
	if lv.Kind != Goroutine {
		for c := lv.Chosen + 1; c < lv.until(); c++ {
			out = append(out, c)
		}
		return out
	}
	for _, q := range lv.Backtrack {
		if q != lv.Chosen && !lv.tried(q) && !slices.Contains(lv.Sleep, q) && d.within(lv, q) {
			out = append(out, q)
		}
	}
	return out
}

// closed is a copy of lv in which the choices left are taken as tried
// (by another part): a subtree below it does not go back to them.
func (lv dlevel) closed(left []int) dlevel {
	c := lv
	c.Enabled = slices.Clone(lv.Enabled)
	c.Backtrack = slices.Clone(lv.Backtrack)
	c.Sleep = slices.Clone(lv.Sleep)
	c.Done = slices.Clone(lv.Done)
	if lv.Kind != Goroutine {
		c.Until = lv.Chosen + 1
		return c
	}
	for _, q := range left {
		c.Done = append(c.Done, tried{q, true}) // never run: its event is unknown
	}
	return c
}
