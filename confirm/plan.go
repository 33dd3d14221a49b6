package confirm

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

// Where a schedule departs from what Go does unprompted. gosct's default
// schedule (strategies.Default) is the one Go comes closest to by itself:
// the running goroutine goes on until it blocks, and then another runs. A
// minimized schedule is a few deviations from it, each of which holds a
// goroutine back that Go would have run: a preemption holds back the
// goroutine that could have gone on, a timer fired early holds back the
// goroutine that would have run before it, and a switch to another
// goroutine than the next holds that next one back. Each becomes a Hold:
// the goroutine, stopped where it was (its pending operation), until the
// goroutine that ran in its place reaches the point where the schedule
// gave the held one its turn back.

// Frame is one frame of a user stack as a trace records it.
type Frame struct {
	Func string // package path and function, "example.com/p.(*T).M.func1"
	File string // base name, "queue.go"
	Line int
}

// Pos is "file.go:12".
func (f Frame) Pos() string { return f.File + ":" + strconv.Itoa(f.Line) }

// Pkg is the frame's package path, "example.com/p" (or "example.com/p_test").
func (f Frame) Pkg() string {
	slash := strings.LastIndexByte(f.Func, '/')
	dot := strings.IndexByte(f.Func[slash+1:], '.')
	if dot < 0 {
		return f.Func
	}
	return f.Func[:slash+1+dot]
}

// Place is where a goroutine of the schedule stands: the operation it is
// about to perform and its stack there, innermost first.
type Place struct {
	G     int
	Op    string
	Stack []Frame
	// N counts the goroutine's earlier passes at the same place (same
	// stack), so that a place inside a loop is the same iteration: its
	// earlier steps there, but for those that blocked (an operation that
	// blocks and is resumed is one pass of its statement, which is what
	// the inserted call counts).
	N int
	// Nth counts the other goroutines that reached the same place (same
	// stack) before this one first did: several goroutines running the
	// same function (one per channel a test makes, one per request) all
	// pass its lines, and the hold is for the Nth of them to arrive, not
	// for the first.
	Nth int
	// After: the goroutine is held right after this operation's
	// statement, not before it: it had done it, and never ran again in
	// the schedule (others ran on to the bug).
	After bool
}

// Pos is the position of the place's operation, "" when unknown.
func (p Place) Pos() string {
	if len(p.Stack) == 0 {
		return ""
	}
	return p.Stack[0].Pos()
}

// Hold is one departure of the schedule from its default.
type Hold struct {
	// Decision is the 1-based index of the deviating decision.
	Decision int
	// Why is "preempted", "held back" or "timer fired early".
	Why string
	// At is the goroutine held back, where it stands.
	At Place
	// Ran is the goroutine that ran instead (strategies.Clock: a timer).
	Ran int
	// Until is where the goroutine that ran last stands when the held
	// one gets its turn back in the schedule: the hold's end. Nil when
	// the held goroutine never runs again in the schedule.
	Until *Place
	// Timer: a timer fired while the held goroutine could run; in go
	// test the hold must outlast what was left of the timer's duration.
	Timer bool
}

// Plan derives the holds of a trace's schedule. lateStarts adds a hold
// for every goroutine the schedule starts later than Go would, which is
// at once when other processors are idle: where the schedule keeps a new
// goroutine waiting while its creator goes on, which gosct's default does
// but parallel Go does not.
func Plan(t *replay.Trace, lateStarts bool) []Hold {
	s := newSched(t)
	var holds []Hold
	for i, d := range t.Decisions {
		if d.Kind != strategies.Goroutine.String() || len(d.Enabled) < 2 {
			continue
		}
		p := strategies.Point{Kind: strategies.Goroutine, Choices: d.Enabled, Current: d.G}
		if cur := p.Index(d.G); cur >= 0 {
			if at, ok := s.next(d.G, i); ok && at.Op == "yield" {
				p.Yield = true
			}
		}
		def := p.Choices[strategies.Default(&p)]
		if def == d.Choice || def == strategies.Clock {
			continue
		}
		h := Hold{Decision: i + 1, Ran: d.Choice, Timer: d.Choice == strategies.Clock}
		switch {
		case h.Timer:
			h.Why = "timer fired early"
		case def == d.G:
			h.Why = "preempted"
		default:
			h.Why = "held back"
		}
		at, ok := s.next(def, i)
		if !ok {
			// It never runs again: held after what it did last (the
			// sender of a message its receiver acts on at once, up
			// to the bug, while Go would run the sender on).
			if at, ok = s.last(def, i); !ok {
				continue
			}
		}
		h.At = at
		h.Until = s.until(def, i)
		holds = append(holds, h)
	}
	if lateStarts {
		late := append(s.lateStarts(holds), s.lateWakes(holds)...)
		holds = append(holds, late...)
		sort.SliceStable(holds, func(i, j int) bool { return holds[i].Decision < holds[j].Decision })
	}
	return holds
}

// sched indexes a trace's steps by goroutine.
type sched struct {
	t      *replay.Trace
	stacks [][]Frame
	// byG lists the indexes in t.Steps of each goroutine's steps.
	byG map[int][]int
	// arrivals lists, for each place, the goroutines that reached it, in
	// the order of their first step there.
	arrivals map[placeKey][]arrival
}

func newSched(t *replay.Trace) *sched {
	s := &sched{t: t, byG: map[int][]int{}, arrivals: map[placeKey][]arrival{}}
	for _, st := range t.Stacks {
		s.stacks = append(s.stacks, parseStack(st))
	}
	type gPlace struct {
		g int
		p placeKey
	}
	arrived := map[gPlace]bool{}
	for i, st := range t.Steps {
		s.byG[st.G] = append(s.byG[st.G], i)
		if st.Stack == 0 {
			continue
		}
		pk := placeKey{st.Stack, st.Pos, st.Op}
		if gp := (gPlace{st.G, pk}); !arrived[gp] {
			arrived[gp] = true
			s.arrivals[pk] = append(s.arrivals[pk], arrival{st.G, i})
		}
	}
	return s
}

// parseStack reads a trace's stack, "pkg.F\n\tfile.go:12\n" lines.
func parseStack(st string) []Frame {
	var out []Frame
	lines := strings.Split(st, "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		fn, pos := strings.TrimSpace(lines[i]), strings.TrimSpace(lines[i+1])
		c := strings.LastIndexByte(pos, ':')
		if fn == "" || c < 0 {
			break
		}
		n, err := strconv.Atoi(pos[c+1:])
		if err != nil {
			break
		}
		out = append(out, Frame{Func: fn, File: pos[:c], Line: n})
	}
	return out
}

// place is the place of step k.
func (s *sched) place(k int) Place {
	st := s.t.Steps[k]
	p := Place{G: st.G, Op: st.Op}
	if st.Stack > 0 && st.Stack <= len(s.stacks) {
		p.Stack = s.stacks[st.Stack-1]
	}
	first := k
	for _, j := range s.byG[st.G] {
		if j >= k {
			break
		}
		if o := s.t.Steps[j]; o.Stack == st.Stack && o.Pos == st.Pos && o.Op == st.Op {
			first = min(first, j)
			if o.Blocked == "" {
				p.N++
			}
		}
	}
	for _, a := range s.arrivals[placeKey{st.Stack, st.Pos, st.Op}] {
		if a.k >= first {
			break
		}
		if a.g != st.G {
			p.Nth++
		}
	}
	return p
}

// placeKey is a place of the trace, for arrivals.
type placeKey struct {
	stack   int
	pos, op string
}

// arrival is a goroutine's first step (index k) at a place.
type arrival struct{ g, k int }

// next is where goroutine g stands after decision i (0-based): the
// operation of its next step. A goroutine not started yet stands at its
// first operation.
func (s *sched) next(g, i int) (Place, bool) {
	for _, k := range s.byG[g] {
		st := s.t.Steps[k]
		if st.Decision <= i+1 || st.Op == "start" || st.Op == "exit" || st.Op == "go" {
			continue
		}
		if st.Stack == 0 {
			continue
		}
		return s.place(k), true
	}
	return Place{}, false
}

// last is where goroutine g stands after decision i when it takes no
// step after it: right after its last operation (After).
func (s *sched) last(g, i int) (Place, bool) {
	ks := s.byG[g]
	for j := len(ks) - 1; j >= 0; j-- {
		st := s.t.Steps[ks[j]]
		if st.Decision > i+1 {
			return Place{}, false // it has a later step: next's case
		}
		if st.Blocked != "" || st.Op == "exit" {
			return Place{}, false // blocked, or done: nothing to hold
		}
		if st.Op == "start" || st.Stack == 0 {
			continue
		}
		p := s.place(ks[j])
		p.After = true
		return p, true
	}
	return Place{}, false
}

// until is where the goroutine that ran last stands when g, held back at
// decision i, gets its turn again: its pending operation if it could go
// on, else the operation it blocked at (or its last one, if it exited).
func (s *sched) until(g, i int) *Place {
	ds := s.t.Decisions
	r := -1
	for j := i + 1; j < len(ds); j++ {
		if ds[j].Kind == strategies.Goroutine.String() && ds[j].Choice == g {
			r = j
			break
		}
	}
	if r < 0 || ds[r].G < 0 || ds[r].G == g {
		return nil
	}
	who := ds[r].G
	for _, e := range ds[r].Enabled {
		if e == who {
			if p, ok := s.next(who, r); ok {
				return &p
			}
			return nil
		}
	}
	last := -1
	for _, k := range s.byG[who] {
		st := s.t.Steps[k]
		if st.Decision > r+1 {
			break
		}
		if st.Stack > 0 {
			last = k
		}
	}
	if last < 0 {
		return nil
	}
	p := s.place(last)
	return &p
}

// lateStarts holds back, for each goroutine the schedule did not start
// at the decision after its go statement, its first operation until the
// goroutine that ran before its start reaches where it stood then. Holds
// already placed on the goroutine's first operation are not repeated.
func (s *sched) lateStarts(have []Hold) []Hold {
	var out []Hold
	for g, ks := range s.byG {
		if g == 0 {
			continue
		}
		start := -1
		for _, k := range ks {
			if s.t.Steps[k].Op == "start" {
				start = s.t.Steps[k].Decision - 1 // the decision that started it
				break
			}
		}
		created := -1
		for k, st := range s.t.Steps {
			if st.Op == "go" && st.Child == g {
				created = st.Decision
				_ = k
				break
			}
		}
		if start < 0 || created < 0 || start <= created+1 {
			continue
		}
		at, ok := s.next(g, start)
		if !ok {
			continue
		}
		dup := false
		for _, h := range have {
			dup = dup || h.At.G == g && h.At.Pos() == at.Pos() && h.At.N == at.N
		}
		if dup {
			continue
		}
		h := Hold{Decision: start + 1, Why: "started late", At: at, Ran: -1}
		h.Until = s.until(g, start-1)
		out = append(out, h)
	}
	return out
}

// lateWakes holds back, for each goroutine the schedule did not run at
// once when an operation of another made it runnable again (the receiver
// of a send, the waiter of an unlock), its next operation until the
// goroutine that ran before its turn came reaches where it stood then.
// gosct's default lets the waker go on until it blocks; parallel Go runs
// the woken goroutine at once on an idle processor. The hold goes after
// the resumed operation (it cannot go inside it): what the woken
// goroutine does next waits, as in the schedule. Holds already placed
// there are not repeated.
func (s *sched) lateWakes(have []Hold) []Hold {
	var out []Hold
	ds := s.t.Decisions
	for g, ks := range s.byG {
		for i, k := range ks {
			if s.t.Steps[k].Blocked == "" || i+1 >= len(ks) {
				continue
			}
			rd := s.t.Steps[ks[i+1]].Decision - 1 // the decision that resumed g
			if rd <= 0 || rd >= len(ds) || ds[rd].Choice != g {
				continue
			}
			w := rd
			for w-1 > s.t.Steps[k].Decision-1 && enabled(ds[w-1], g) {
				w--
			}
			if w == rd {
				continue // run as soon as it could
			}
			at, ok := s.next(g, rd)
			if !ok {
				continue
			}
			dup := false
			for _, h := range have {
				dup = dup || h.At.G == g && h.At.Pos() == at.Pos() && h.At.N == at.N && h.At.Nth == at.Nth
			}
			if dup {
				continue
			}
			h := Hold{Decision: w + 1, Why: "woken late", At: at, Ran: ds[w].Choice}
			h.Until = s.until(g, rd-1)
			out = append(out, h)
		}
	}
	return out
}

func enabled(d replay.Decision, g int) bool {
	for _, e := range d.Enabled {
		if e == g {
			return true
		}
	}
	return false
}
