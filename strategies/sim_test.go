package strategies

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"
)

// The simulator runs a model program under a Strategy the way the runtime
// does: one goroutine at a time, a scheduling point before every step (Kind
// Goroutine, Choices = enabled ids ascending, Current = the goroutine that
// ran the last step), and a Kind Case point inside a select step.
//
// A step is one visible operation followed by the invisible ones up to the
// next visible operation, exactly the paper's notion, so a model written
// step for step after a figure of the paper has the paper's schedules. A
// goroutine that has run its last step is disabled at once (there is no
// separate exit step), as in the paper ("T1 ... is considered disabled after
// c"). Mapping to real Go: the paper's single step "create(T1,T2,T3)" is
// three go statements, hence three scheduling points of the test goroutine;
// a Go port therefore has more schedules than the figure, and the models
// below keep the paper's one-step creation to reproduce its counts.

type thread struct {
	ops   []op
	pc    int
	live  bool // created and not finished
	regs  [4]int
	moves int
}

// op is one step. guard, if set, says whether the step can run (a lock is
// free, the threads joined have finished); do performs it and may set
// t.pc to jump, s.fail to end the execution with a failed assertion, or
// create threads.
type op struct {
	name  string
	guard func(s *sim, t *thread) bool
	do    func(s *sim, t *thread)
	cases int  // > 1: a select with this many ready cases
	yield bool // the step is runtime.Gosched
	// acc is the step's event, for the strategies that use events
	// (dpor); a thread's last step also writes its done object, which
	// join reads.
	acc []Access
}

type prog struct {
	threads [][]op // thread 0 is live at start; others start when created
	nvars   int
	// locate makes the simulator a Locator (Point.Where): thread id's
	// position is the frame {file, 1000*id + pc}, file "sim.go" unless
	// set.
	locate bool
	file   string
	// goOn: a failed assertion does not end the execution, so that every
	// execution is complete (for comparing traces).
	goOn bool
	// noClass leaves outcome.class empty (for benchmarks: computing it
	// costs more than the strategy).
	noClass bool
	// uncontrolled: the executions report code outside the runtime's
	// control (End.Uncontrolled).
	uncontrolled bool
	// values: the executions report a value no decision chose
	// (End.Values).
	values bool
	// clock are the timers of the program, by deadline: while one is
	// pending, every goroutine point offers Clock, which fires the next
	// (its do runs, with a thread of its own); when no thread can run,
	// it fires without a point, after a barrier, as the runtime's clock
	// advances. As the runtime describes it, a firing is global.
	clock []op
}

// clockEvent is the event of a firing, as the runtime describes it.
var clockEvent = []Access{{Op: OpGlobal}}

type sim struct {
	p       *prog
	th      []*thread
	vars    []int
	locks   map[int]int // lock -> holder+1
	fail    string
	sched   []string // one entry per step: "T1:b" or "T1:sel=2"
	evs     []simStep
	points  int
	lastCas int
	clk     int // timers fired
}

// outcome of one execution.
type outcome struct {
	schedule string
	class    string // the Mazurkiewicz trace of the schedule (classKey)
	final    string // the state it ended in
	failed   bool
	deadlock bool
}

func (p *prog) run(st Strategy, maxSteps int) outcome {
	s := &sim{p: p, vars: make([]int, p.nvars), locks: map[int]int{}}
	for i, ops := range p.threads {
		s.th = append(s.th, &thread{ops: ops, live: i == 0})
	}
	cur := 0
	yielded := false
	pt := &Point{}
	eu, _ := st.(EventUser)
	events := eu != nil && eu.Wants()&WantEvents != 0
	states := eu != nil && eu.Wants()&WantStates != 0
	names := map[uintptr]uint64{} // object names, as the runtime's (MentionHash)
	gsteps := make([]int, len(p.threads))
	named := make([]int, len(p.threads))
	for steps := 0; (s.fail == "" || p.goOn) && steps < maxSteps; steps++ {
		var en []int
		for id, t := range s.th {
			if t.live && (t.ops[t.pc].guard == nil || t.ops[t.pc].guard(s, t)) {
				en = append(en, id)
			}
		}
		if len(en) == 0 && s.clk < len(p.clock) && s.blocked() {
			s.fire("")
			pt.Last.Acc = append(pt.Last.Acc[:len(pt.Last.Acc):len(pt.Last.Acc)], Access{Op: OpBarrier})
			continue
		}
		if len(en) == 0 {
			break
		}
		if s.clk < len(p.clock) {
			en = append(en, Clock)
		}
		pt.Kind, pt.Choices, pt.Current, pt.Yield = Goroutine, en, cur, yielded
		pt.Where = nil
		if p.locate {
			pt.Where = s
		}
		pt.Events = pt.Events[:0]
		if events {
			for _, id := range en {
				if id == Clock {
					pt.Events = append(pt.Events, Event{Acc: clockEvent})
					continue
				}
				t := s.th[id]
				ev := Event{Acc: t.ops[t.pc].acc}
				if t.pc == len(t.ops)-1 {
					ev.Acc = append(ev.Acc[:len(ev.Acc):len(ev.Acc)], Access{Op: OpWrite, Obj: doneObj(id)})
				}
				pt.Events = append(pt.Events, ev)
				if k := gsteps[id] + 1; named[id] != k {
					named[id] = k
					for j, a := range ev.Acc {
						names[a.Obj] += MentionHash(id, k, j)
					}
				}
			}
		}
		if states {
			pt.State = s.signature(names)
		}
		i := st.Next(pt)
		pt.Last = Event{}
		s.points++
		if en[i] == Clock {
			// The thread that reached the point is still there.
			s.fire("C:")
			yielded = false
			continue
		}
		cur = en[i]
		gsteps[cur]++
		t := s.th[cur]
		o := t.ops[t.pc]
		lastOp := t.pc == len(t.ops)-1
		t.pc++
		t.moves++
		entry := fmt.Sprintf("T%d:%s", cur, o.name)
		if o.cases > 1 {
			cs := make([]int, o.cases)
			for k := range cs {
				cs[k] = k
			}
			pt.Kind, pt.Choices, pt.Current, pt.Yield = Case, cs, cur, false
			s.lastCas = cs[st.Next(pt)]
			s.points++
			entry += fmt.Sprintf("=%d", s.lastCas)
		}
		s.sched = append(s.sched, entry)
		if o.do != nil {
			o.do(s, t)
		}
		yielded = o.yield
		if t.pc >= len(t.ops) {
			t.live = false
			if !lastOp {
				// It ended by a jump: its event did not say it
				// would finish.
				pt.Last = Event{Acc: []Access{{Op: OpWrite, Obj: doneObj(cur)}}}
			}
		}
		s.evs = append(s.evs, simStep{g: cur, name: entry, acc: o.acc, done: !t.live})
	}
	if eu != nil {
		// As the runtime: after every execution, Last with events only.
		end := End{Uncontrolled: p.uncontrolled, Values: p.values}
		if events {
			end.Last = pt.Last
		}
		eu.EndExecution(end)
	}
	out := outcome{schedule: strings.Join(s.sched, " "), failed: s.fail != ""}
	if !p.noClass {
		out.class = classKey(s.evs)
	}
	out.final = fmt.Sprint(s.vars, s.fail)
	for _, t := range s.th {
		out.final += fmt.Sprint(t.regs)
	}
	if !out.failed {
		for _, t := range s.th {
			if t.live {
				out.deadlock = true
			}
		}
	}
	return out
}

// blocked reports whether a thread is live (none can run).
func (s *sim) blocked() bool {
	for _, t := range s.th {
		if t.live {
			return true
		}
	}
	return false
}

// fire fires the next timer.
func (s *sim) fire(prefix string) {
	o := s.p.clock[s.clk]
	s.clk++
	entry := prefix + o.name
	s.sched = append(s.sched, entry)
	if o.do != nil {
		o.do(s, &thread{})
	}
	s.evs = append(s.evs, simStep{g: Clock, name: entry, acc: clockEvent})
}

// Where implements Locator for the simulated threads.
func (s *sim) Where(id int) (string, []Frame, int) {
	t := s.th[id]
	file := s.p.file
	if file == "" {
		file = "sim.go"
	}
	return t.ops[t.pc].name, []Frame{{File: file, Line: 1000*id + t.pc}}, t.moves
}

// explore runs st until it is exhausted or limit executions, and returns
// the outcomes.
func explore(t testing.TB, p *prog, st Strategy, limit int) []outcome {
	t.Helper()
	var outs []outcome
	for len(outs) < limit && st.NewExecution() {
		outs = append(outs, p.run(st, 10000))
	}
	return outs
}

// Step constructors.

func set(name string, v, val int) op {
	return op{name: name, do: func(s *sim, t *thread) { s.vars[v] = val }, acc: []Access{wr(v)}}
}

// Objects of the model programs, for the events: variable v, lock m, and
// the done flag of thread id that join waits for.
func varObj(v int) uintptr   { return 0x1000 + 8*uintptr(v) }
func lockObj(m int) uintptr  { return 0x100000 + 8*uintptr(m) }
func doneObj(id int) uintptr { return 0x200000 + 8*uintptr(id) }

func rd(v int) Access { return Access{Op: OpRead, Obj: varObj(v), Size: 8} }
func wr(v int) Access { return Access{Op: OpWrite, Obj: varObj(v), Size: 8} }

func create(name string, ids ...int) op {
	return op{name: name, do: func(s *sim, t *thread) {
		for _, id := range ids {
			s.th[id].live = true
		}
	}}
}

// assertOp checks f, which reads the variables vs.
func assertOp(name string, f func(vars []int) bool, vs ...int) op {
	o := op{name: name, do: func(s *sim, t *thread) {
		if !f(s.vars) {
			s.fail = name
		}
	}}
	for _, v := range vs {
		o.acc = append(o.acc, rd(v))
	}
	return o
}

func join(name string, ids ...int) op {
	o := op{name: name, guard: func(s *sim, t *thread) bool {
		for _, id := range ids {
			if s.th[id].live {
				return false
			}
		}
		return true
	}}
	for _, id := range ids {
		o.acc = append(o.acc, Access{Op: OpRead, Obj: doneObj(id)})
	}
	return o
}

func lock(name string, m int) op {
	return op{name: name,
		guard: func(s *sim, t *thread) bool { return s.locks[m] == 0 },
		do: func(s *sim, t *thread) {
			for id, x := range s.th {
				if x == t {
					s.locks[m] = id + 1
				}
			}
		}, acc: []Access{{Op: OpLock, Obj: lockObj(m)}}}
}

func unlock(name string, m int) op {
	return op{name: name, do: func(s *sim, t *thread) { s.locks[m] = 0 }, acc: []Access{{Op: OpUnlock, Obj: lockObj(m)}}}
}

func nop(name string) op { return op{name: name} }

// Programs from the paper.

const (
	vx = iota
	vy
	vz
)

// fig1 is SCTBench Fig. 1: T0: a) create(T1,T2,T3); T1: b) x=1, c) y=1;
// T2: d) z=1; T3: e) assert(x==y).
func fig1() *prog {
	return &prog{nvars: 3, threads: [][]op{
		{create("a", 1, 2, 3)},
		{set("b", vx, 1), set("c", vy, 1)},
		{set("d", vz, 1)},
		{assertOp("e", func(v []int) bool { return v[vx] == v[vy] }, vx, vy)},
	}}
}

// fig2 is Fig. 2: T2's body replaced by T1's (f: x=1, g: y=1).
func fig2() *prog {
	p := fig1()
	p.threads[2] = []op{set("f", vx, 1), set("g", vy, 1)}
	return p
}

// reorder is CS.reorder_X_bad with X-1 setters (a=1; b=-1) and one checker
// that reads, each read a step, in C's short-circuit order
// (a==0 && b==0) || (a==1 && b==-1); main creates them all in one step and
// joins them.
func reorder(x int) *prog {
	const va, vb = 0, 1
	setters := x - 1
	p := &prog{nvars: 2}
	var ids []int
	for i := 1; i <= setters+1; i++ {
		ids = append(ids, i)
	}
	p.threads = append(p.threads, []op{create("create", ids...), join("join", ids...)})
	for i := 0; i < setters; i++ {
		p.threads = append(p.threads, []op{set("a=1", va, 1), set("b=-1", vb, -1)})
	}
	p.threads = append(p.threads, []op{
		{name: "read a", do: func(s *sim, t *thread) {
			if s.vars[va] != 0 {
				t.pc = 2
			}
		}, acc: []Access{rd(va)}},
		{name: "read b", do: func(s *sim, t *thread) {
			if s.vars[vb] == 0 {
				t.pc = 4 // true: done
			}
		}, acc: []Access{rd(vb)}},
		{name: "read a", do: func(s *sim, t *thread) {
			if s.vars[va] != 1 {
				s.fail = "bug found"
			}
		}, acc: []Access{rd(va)}},
		{name: "read b", do: func(s *sim, t *thread) {
			if s.vars[vb] != -1 {
				s.fail = "bug found"
			}
		}, acc: []Access{rd(vb)}},
	})
	return p
}

// indep is n threads of k independent steps each, created in one step by
// thread 0 which then finishes.
func indep(n, k int) *prog {
	p := &prog{}
	var ids []int
	for i := 1; i <= n; i++ {
		ids = append(ids, i)
	}
	p.threads = append(p.threads, []op{create("go", ids...)})
	for i := 0; i < n; i++ {
		var ops []op
		for j := 0; j < k; j++ {
			ops = append(ops, nop(fmt.Sprintf("s%d", j)))
		}
		p.threads = append(p.threads, ops)
	}
	return p
}

func distinct(outs []outcome) map[string]bool {
	m := map[string]bool{}
	for _, o := range outs {
		m[o.schedule] = true
	}
	return m
}

func firstBug(outs []outcome) int {
	for i, o := range outs {
		if o.failed {
			return i + 1
		}
	}
	return 0
}

// A simStep is a step of an execution of the simulator, for classKey.
type simStep struct {
	g    int
	name string
	acc  []Access
	done bool // the thread finished: the step also wrote its done object
}

// classKey names the Mazurkiewicz trace of an execution: the steps of
// each thread in order, and the order of every pair of conflicting steps
// of two threads. Two executions have the same key exactly when one is a
// reordering of the other's commuting steps.
func classKey(steps []simStep) string {
	ev := func(st simStep) Event {
		e := Event{Acc: st.acc}
		if st.done {
			e.Acc = append(e.Acc[:len(e.Acc):len(e.Acc)], Access{Op: OpWrite, Obj: doneObj(st.g)})
		}
		return e
	}
	local := make([]int, len(steps))
	count := map[int]int{}
	perThread := map[int][]string{}
	for i, st := range steps {
		count[st.g]++
		local[i] = count[st.g]
		perThread[st.g] = append(perThread[st.g], st.name)
	}
	var parts []string
	for g := Clock; g < len(perThread)+64; g++ {
		if names, ok := perThread[g]; ok {
			parts = append(parts, fmt.Sprintf("T%d[%s]", g, strings.Join(names, ",")))
		}
	}
	for i := range steps {
		a := ev(steps[i])
		for j := i + 1; j < len(steps); j++ {
			if steps[j].g == steps[i].g {
				continue
			}
			b := ev(steps[j])
			if Dependent(&a, &b) {
				parts = append(parts, fmt.Sprintf("%d.%d<%d.%d", steps[i].g, local[i], steps[j].g, local[j]))
			}
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// signature is the whole state of the simulation (exact: threads' program
// counters and registers, variables, locks), with the objects under their
// names, as the runtime's.
func (s *sim) signature(names map[uintptr]uint64) uint64 {
	h := fnv.New64a()
	for _, t := range s.th {
		fmt.Fprint(h, t.pc, t.live, t.regs)
	}
	fmt.Fprint(h, s.clk)
	var objs []string
	for obj, name := range names {
		var content any
		switch {
		case obj >= doneObj(0):
			content = s.th[(obj-doneObj(0))/8].live
		case obj >= lockObj(0):
			content = s.locks[int(obj-lockObj(0))/8]
		default:
			content = s.vars[(obj-varObj(0))/8]
		}
		objs = append(objs, fmt.Sprint(name, "=", content))
	}
	sort.Strings(objs)
	fmt.Fprint(h, objs)
	return h.Sum64() | 1
}
