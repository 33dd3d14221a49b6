package replay

import (
	"fmt"
	"strings"
)

// CheckSteps checks that a trace's steps tell a causally possible story,
// the orders any reader of the interleaving relies on:
//   - every step of a goroutine is taken while it runs: the last goroutine
//     decision at or before the step chose it, and a goroutine decision
//     whose chosen goroutine had an operation pending shows that very
//     operation as a step of that goroutine;
//   - a goroutine starts after the go statement that created it, and does
//     nothing after it exited;
//   - a blocked goroutine's next step resumes the operation it blocked in;
//   - a mutex is taken only after its previous holder unlocked it (an
//     RWMutex: no reader or writer while a writer holds it);
//   - a receive completes after, or with, the send it receives from (or a
//     close).
//
// It returns every violation found (nil: none). A trace without steps, or
// whose execution depended on uncontrolled code (goroutines that took
// turns the schedule does not show), has nothing to check.
func CheckSteps(t *Trace) []error {
	if len(t.Steps) == 0 || t.Uncontrolled {
		return nil
	}
	c := &checker{t: t}
	c.decisions()
	c.lifetimes()
	c.blocked()
	c.mutexes()
	c.channels()
	return c.errs
}

type checker struct {
	t    *Trace
	errs []error
}

func (c *checker) fail(i int, format string, args ...any) {
	if len(c.errs) >= 20 {
		return
	}
	s := c.t.Steps[i]
	c.errs = append(c.errs, fmt.Errorf("step %d (decision %d, G%d %s): %s", i+1, s.Decision, s.G, StepText(s), fmt.Sprintf(format, args...)))
}

// truncated reports whether the trace kept only the last of its steps (a
// very long execution): the first decisions then have no steps.
func (c *checker) truncated() bool { return c.t.Steps[0].Decision > 1 }

// decisions checks steps against the decisions: who ran when.
func (c *checker) decisions() {
	ds := c.t.Decisions
	// running[k]: the goroutine the last goroutine decision at or before
	// k chose; -1 before the first one.
	running := make([]int, len(ds)+1)
	running[0] = 0 // the test goroutine runs first
	for k := 1; k <= len(ds); k++ {
		running[k] = running[k-1]
		if ds[k-1].Kind == "goroutine" {
			running[k] = ds[k-1].Choice
		}
	}
	last := 0
	for i, s := range c.t.Steps {
		if s.Decision < last || s.Decision > len(ds) {
			c.fail(i, "out of order: decision %d after %d (of %d)", s.Decision, last, len(ds))
			return
		}
		last = s.Decision
		if s.G < 0 {
			continue // the clock
		}
		if running[s.Decision] != s.G {
			c.fail(i, "G%d does not run at decision %d (G%d does)", s.G, s.Decision, running[s.Decision])
		}
	}
	if c.truncated() {
		return
	}
	at := map[int][]int{} // decision -> its steps
	for i, s := range c.t.Steps {
		at[s.Decision] = append(at[s.Decision], i)
	}
	for k := 1; k <= len(ds); k++ {
		d := ds[k-1]
		if d.Kind != "goroutine" || d.Op == "" || d.Op == "go" {
			continue // no detail, or a goroutine going on from its go statement
		}
		ok := false
		for _, i := range at[k] {
			s := c.t.Steps[i]
			if s.G == d.Choice && s.Op == d.Op {
				ok = true
				break
			}
		}
		if !ok {
			c.errs = append(c.errs, fmt.Errorf("decision %d chose G%d at %s, and no step of G%d shows it", k, d.Choice, d.Op, d.Choice))
		}
	}
}

// lifetimes checks that goroutines start after their go statement and do
// nothing after they exit.
func (c *checker) lifetimes() {
	created := map[int]int{} // goroutine -> step index of its go statement
	started := map[int]bool{}
	exited := map[int]bool{}
	adopted := map[int]bool{}
	for _, g := range c.t.Goroutines {
		adopted[g.ID] = strings.HasPrefix(g.Created, "started by")
	}
	for i, s := range c.t.Steps {
		if s.Child > 0 {
			if _, dup := created[s.Child]; dup || started[s.Child] {
				c.fail(i, "G%d created twice, or after it started", s.Child)
			}
			created[s.Child] = i
		}
		if s.G <= 0 || adopted[s.G] {
			continue
		}
		if exited[s.G] {
			c.fail(i, "G%d acts after it exited", s.G)
		}
		if !started[s.G] {
			started[s.G] = true
			if _, ok := created[s.G]; !ok && !c.truncated() {
				c.fail(i, "G%d acts before the go statement that creates it", s.G)
			}
			if s.Op != "start" && !c.truncated() {
				c.fail(i, "G%d's first step is not its start", s.G)
			}
		}
		if s.Op == "exit" || s.Op == "panic" {
			exited[s.G] = true
		}
	}
}

// blocked checks that a goroutine resumes the operation it blocked in.
func (c *checker) blocked() {
	pending := map[int]Step{}
	for i, s := range c.t.Steps {
		if s.G < 0 || s.Child > 0 {
			continue
		}
		if b, ok := pending[s.G]; ok {
			// A woken Cond.Wait locks its mutex again: an operation of its own.
			relock := b.Op == "cond wait" && strings.HasSuffix(s.Op, "lock") && s.Pos == b.Pos
			if (s.Op != b.Op || s.Pos != b.Pos) && !relock {
				c.fail(i, "G%d blocked in %s and goes on elsewhere", s.G, StepText(b))
			}
			delete(pending, s.G)
		}
		if s.Blocked != "" {
			pending[s.G] = s
		}
	}
}

// mutexes checks that a mutex has one holder at a time.
func (c *checker) mutexes() {
	holder := map[int]int{} // obj -> goroutine holding it as a writer (absent: free)
	readers := map[int]int{}
	resumes := map[int]bool{} // goroutine -> its next step resumes a blocked one
	for i, s := range c.t.Steps {
		resumed := resumes[s.G]
		resumes[s.G] = s.Blocked != ""
		if s.Obj == 0 || s.Child > 0 {
			continue
		}
		op := s.Op
		if op == "cond wait" {
			// Wait unlocks its mutex, then blocks; woken, it locks it
			// again (its own step, or the step that resumes it).
			op = "mutex unlock"
			if resumed {
				op = "mutex lock"
			}
		} else if s.Blocked != "" {
			continue
		}
		h, held := holder[s.Obj]
		switch op {
		case "mutex lock", "rwmutex lock":
			if held {
				c.fail(i, "#%d taken while G%d holds it", s.Obj, h)
			}
			if readers[s.Obj] > 0 {
				c.fail(i, "#%d write-locked while %d readers hold it", s.Obj, readers[s.Obj])
			}
			holder[s.Obj] = s.G
		case "mutex unlock", "rwmutex unlock":
			if !held {
				c.fail(i, "#%d unlocked while nobody holds it", s.Obj)
			}
			delete(holder, s.Obj)
		case "rwmutex rlock":
			if held {
				c.fail(i, "#%d read-locked while G%d holds it", s.Obj, h)
			}
			readers[s.Obj]++
		case "rwmutex runlock":
			readers[s.Obj]--
		}
	}
}

// channels checks that every receive has a send (or a close) before it, on
// the channels whose every operation the steps show: no select, no value
// sent by the clock or uncontrolled code.
func (c *checker) channels() {
	type chanOps struct {
		sends, recvs int
		closed       bool
		unchecked    bool
		bad          int // first violating step, -1 none
	}
	chans := map[int]*chanOps{}
	of := func(obj int) *chanOps {
		if chans[obj] == nil {
			chans[obj] = &chanOps{bad: -1}
		}
		return chans[obj]
	}
	resumed := map[int]bool{} // goroutine -> its next step resumes a blocked one
	for i, s := range c.t.Steps {
		resumes := resumed[s.G]
		resumed[s.G] = s.Blocked != ""
		if s.Obj == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(s.Op, "select"):
			of(s.Obj).unchecked = true
		case s.Op == "chan send":
			if !resumes { // one operation: its blocked attempt and its completion
				of(s.Obj).sends++
			}
		case s.Op == "chan close":
			of(s.Obj).closed = true
		case s.Op == "chan receive" && s.Blocked == "":
			ch := of(s.Obj)
			ch.recvs++
			if ch.recvs > ch.sends && !ch.closed && ch.bad < 0 {
				ch.bad = i
			}
		}
	}
	for obj, ch := range chans {
		if ch.bad >= 0 && !ch.unchecked && ch.sends > 0 {
			c.fail(ch.bad, "receive %d on #%d before its send (%d sends so far)", ch.recvs, obj, ch.sends)
		}
	}
}
