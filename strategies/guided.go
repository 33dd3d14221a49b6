package strategies

import (
	"fmt"
	"strings"
)

// DefaultBacktrack is guided search's default cap on the backtrack points
// it keeps per key sequence.
const DefaultBacktrack = 1000

// DefaultWalk: by default every DefaultWalk-th execution of guided search
// is a random walk (Options.Walk). Greedy descents run the goroutine
// nearest the key until it gets there, which keeps them away from bugs
// that need the goroutines interleaved anywhere else, and most random
// schedules show those; the walks keep guided search within about twice
// random's schedules on such bugs (the thesis's future work:
// randomization to explore, heuristics to exploit). The thesis itself has
// no walks: Options.Walk < 0 is guided search as it describes it, every
// execution a descent (docs/results.md measures both).
const DefaultWalk = 2

// Guided ("guided") is Rungta's guided search (PhD thesis, BYU 2009,
// chapters 3 and 4): it drives the test toward the places where a bug
// shows, using a Guide that the static analysis computed from the code.
//
// The guide offers sequences of key locations, each ending where a bug
// shows (a t.Errorf call, a panic, a second close, a lock-order cycle)
// and starting, when static analysis found one, with a write of the
// shared state the failing branch reads. One sequence is one search
// trial; the trials that the test can reach take executions in turn.
// Within an execution, at every choice of goroutine:
//
//   - tier 1 (the meta-heuristic): a goroutine whose next step observes
//     the next key location of the sequence is preferred; taking it
//     advances the sequence;
//   - tier 2 (the distance heuristic): otherwise the goroutine closest
//     to the next key location runs, the distance being the fewest
//     scheduling points it must pass to reach it, from its current
//     stack (see guideIndex.distance);
//   - ties are broken at random.
//
// This greedy descent leaves the other goroutines of each decision as
// backtrack points: (the decisions up to there, the other goroutine, the
// keys observed, its distance). When an execution ends without a bug the
// next one of that trial takes a backtrack point: a random level among
// those present, then the least distance at that level, ties at random
// (the thesis's stochastic backtracking). gosct cannot snapshot a program
// state, so a backtrack point is replayed: the execution takes the same
// decisions up to the point (the tie-breaks are seeded, so the greedy
// choices repeat), the other goroutine there, and greedy choices after
// it. The set is capped (DefaultBacktrack), as in the thesis; a point
// that does not fit replaces a random weaker one or is dropped. When a
// trial's set is empty it starts a new greedy descent with new
// tie-breaks.
//
// Every other execution is a random walk (Options.Walk). Select cases are
// chosen at random. A goroutine that yielded is not chosen until no
// other can run (it waits for someone else). With no guide, or no
// sequence the test can reach, guided search is a random walk.
type Guided struct {
	x       *guideIndex
	loadErr error
	rng     *savedRand
	maxBack int
	// walk: every walk-th execution is a random walk; 0: none.
	walk int

	// surveyed is set once the first execution, which finds the keys
	// the test reaches (reach), has ended.
	surveyed bool
	reach    []bool
	trials   []*trial // the sequences the test reaches, in turn
	turn     int
	runs     int
	diverged int

	cur guidedRun
}

// trial is the search along one key sequence.
type trial struct {
	seq  int
	ks   []int // the sequence's keys (indices in the guide), refined
	keys []*keyIndex
	back []backtrack
	runs int
	// fresh counts the greedy descents started anew (the first one
	// included); best is the most keys one execution observed; refined
	// counts the keys refinement inserted.
	fresh, best, refined int
}

// maxRefine bounds the keys refinement inserts in one trial.
const maxRefine = 4

// deviation is a decision of a replayed schedule that differs from the
// greedy choice: at goroutine decision Pos, goroutine G; the tie-breaks
// after it are drawn from Seed.
type deviation struct {
	Pos, G int
	Seed   uint64
}

// backtrack is a backtrack point: the deviations of the execution it was
// seen in (shared, never modified), and a new one, the goroutine not
// taken at decision pos; level and h rank it.
type backtrack struct {
	seed   uint64
	parent []deviation
	pos, g int
	level  int
	h      int32
}

// guidedRun is the execution in progress.
type guidedRun struct {
	t      *trial // nil while surveying, or in random mode
	seed   uint64 // tie-breaks before the first deviation
	devs   []deviation
	next   int // index in devs of the next deviation
	tie    uint64
	pos    int // goroutine decisions so far
	cases  int
	level  int
	random bool
	// stuck is the level at which no goroutine could reach the next key
	// any more, -1 while one can.
	stuck int
	cache []hcache // by goroutine id
	// yielded[id]: goroutine id yielded and has not run since.
	yielded []bool
	// pool and tied are Next's scratch space.
	pool, tied []int
	// surveying: this is the first execution; seen[id] is the moves of
	// goroutine id when last surveyed.
	surveying bool
	seen      []int
}

// hcache is a goroutine's ranking, valid while it has not moved and the
// level has not changed.
type hcache struct {
	moves, level int
	ok           bool
	h, hn        int32 // distance to the next key, and to the one after
	obs          bool  // its next step observes the next key
}

// NewGuided returns guided search reading the guide o.Guide. A guide that
// cannot be read makes it a random walk, and Status says why.
func NewGuided(o Options) *Guided {
	g := &Guided{rng: newSavedRand(o.Seed), maxBack: DefaultBacktrack, walk: DefaultWalk}
	if o.Backtrack > 0 {
		g.maxBack = o.Backtrack
	}
	switch {
	case o.Walk > 0:
		g.walk = o.Walk
	case o.Walk < 0:
		g.walk = 0
	}
	if o.Guide != "" {
		g.x, g.loadErr = loadGuide(o.Guide)
	}
	return g
}

func init() {
	register(Info{Name: "guided", Summary: "toward the places where bugs show (static guide)", Reads: OptGuide | OptWalk, Resumes: true, New: func(o Options) Strategy { return NewGuided(o) }})
}

// Stateless is true for the greedy descents: a backtrack point replays a
// descent's decisions, which repeat only if the program's random draws and
// map orders do too. The random walks need no such thing.
func (g *Guided) Stateless() bool { return !g.cur.random }

// Locates asks the runtime for positions unless guided search has nothing
// to steer toward, or the execution is a random walk: a walk needs none,
// and without them the runtime offers the walk what it offers random
// scheduling, timers firing early at its choice included (it withholds
// that choice from a strategy that steers by positions).
func (g *Guided) Locates() bool {
	return g.x != nil && len(g.x.g.Seqs) > 0 && (!g.surveyed || len(g.trials) > 0) && !(g.cur.random && !g.cur.surveying)
}

// NewExecution prepares the next execution: the next trial's best
// backtrack point, or a new greedy descent. It never ends the search.
func (g *Guided) NewExecution() bool {
	if g.runs > 0 && !g.surveyed {
		g.finishSurvey()
	}
	g.settle()
	g.runs++
	g.cur = guidedRun{seed: g.rng.Uint64(), stuck: -1, cache: g.cur.cache[:0], yielded: g.cur.yielded[:0], pool: g.cur.pool, tied: g.cur.tied}
	g.cur.tie = g.cur.seed
	if !g.surveyed {
		// The first execution surveys which sequences the test can
		// reach (surveyStep).
		g.cur.surveying = g.Locates()
		g.cur.random = !g.cur.surveying
		return true
	}
	if len(g.trials) == 0 || g.walk > 0 && g.runs%g.walk == 0 {
		g.cur.random = true
		return true
	}
	g.start(g.trials[g.turn%len(g.trials)])
	g.turn++
	return true
}

// start makes the current execution the next one of trial t.
func (g *Guided) start(t *trial) {
	t.runs++
	g.cur.t = t
	g.cur.tie = g.cur.seed
	if len(t.back) == 0 {
		t.fresh++
		return
	}
	b := t.pop(g.rng)
	g.cur.seed = b.seed
	g.cur.tie = b.seed
	g.cur.devs = append(append(make([]deviation, 0, len(b.parent)+1), b.parent...), deviation{Pos: b.pos, G: b.g, Seed: g.rng.Uint64()})
}

// Next decides one point.
func (g *Guided) Next(p *Point) int {
	r := &g.cur
	if p.Kind != Goroutine {
		// Select cases and the program's small random draws: at random.
		r.cases++
		return int(mix(r.tie, uint64(r.cases)|1<<62) % uint64(len(p.Choices)))
	}
	pos := r.pos
	r.pos++
	if r.surveying && p.Where != nil {
		g.surveyStep(p, pos)
	}
	t := r.t
	if t == nil || r.random || p.Where == nil || r.level >= len(t.keys) {
		return r.deviate(g, p, pos, -1)
	}
	// Rank every choice against the next key, and the observers against
	// the key after it.
	for _, id := range p.Choices {
		g.rank(p, t, id)
	}
	if p.Yield && p.Current >= 0 {
		for len(r.yielded) <= p.Current {
			r.yielded = append(r.yielded, false)
		}
		r.yielded[p.Current] = true
	}
	// A goroutine that yielded waits for someone else: it runs when
	// every goroutine that can run has yielded (PCT lowers its priority
	// below all others likewise).
	waiting := func(id int) bool { return id < len(r.yielded) && r.yielded[id] }
	others := false
	for _, id := range p.Choices {
		others = others || !waiting(id)
	}
	pool := r.pool[:0]
	obs := false
	for i, id := range p.Choices {
		if others && waiting(id) {
			continue
		}
		if r.cache[id].obs && !obs {
			obs, pool = true, pool[:0]
		}
		if r.cache[id].obs == obs {
			pool = append(pool, i)
		}
	}
	val := func(i int) int32 {
		c := &r.cache[p.Choices[i]]
		if obs {
			return c.hn
		}
		return c.h
	}
	best := int32(inf)
	for _, i := range pool {
		if v := val(i); v < best {
			best = v
		}
	}
	if best == inf && !obs && r.stuck < 0 {
		r.stuck = r.level
	}
	tied := r.tied[:0]
	for _, i := range pool {
		if val(i) == best {
			tied = append(tied, i)
		}
	}
	r.pool, r.tied = pool, tied
	greedy := tied[int(mix(r.tie, uint64(pos))%uint64(len(tied)))]
	choice := r.deviate(g, p, pos, greedy)
	if r.beyondDeviations(pos) {
		g.remember(p, t, pos, choice)
	}
	if id := p.Choices[choice]; id < len(r.yielded) {
		r.yielded[id] = false
	}
	if r.cache[p.Choices[choice]].obs {
		r.level++
		if r.level > t.best {
			t.best = r.level
		}
	}
	return choice
}

// deviate applies the deviation due at decision pos, if any; otherwise it
// returns greedy, or a random choice when greedy is -1.
func (r *guidedRun) deviate(g *Guided, p *Point, pos, greedy int) int {
	if r.next < len(r.devs) && r.devs[r.next].Pos == pos {
		d := r.devs[r.next]
		r.next++
		r.tie = d.Seed
		if i := p.Index(d.G); i >= 0 {
			return i
		}
		g.diverged++ // the program did not repeat itself
	}
	if greedy < 0 {
		return int(mix(r.tie, uint64(pos)) % uint64(len(p.Choices)))
	}
	return greedy
}

// beyondDeviations reports whether decision pos comes after the last
// deviation: only there are the choices not taken new backtrack points
// (those before were recorded by the execution this one came from).
func (r *guidedRun) beyondDeviations(pos int) bool {
	return len(r.devs) == 0 || pos > r.devs[len(r.devs)-1].Pos
}

// rank fills the cache entry of goroutine id.
func (g *Guided) rank(p *Point, t *trial, id int) {
	r := &g.cur
	for len(r.cache) <= id {
		r.cache = append(r.cache, hcache{})
	}
	op, frames, moves := p.Where.Where(id)
	c := &r.cache[id]
	if c.ok && c.moves == moves && c.level == r.level {
		return
	}
	k := t.keys[r.level]
	h := g.x.distance(k, op, frames)
	*c = hcache{moves: moves, level: r.level, ok: true, h: h, hn: inf}
	c.obs = h == 0 && (k.op == "" || k.op == op)
	if c.obs {
		c.hn = 0
		if r.level+1 < len(t.keys) {
			c.hn = g.x.distance(t.keys[r.level+1], op, frames)
		}
	}
}

// remember records the choices not taken at decision pos as backtrack
// points: one per distinct (level, distance), since the thesis's
// ranking cannot tell those apart.
func (g *Guided) remember(p *Point, t *trial, pos, chosen int) {
	r := &g.cur
	type class struct {
		level int
		h     int32
	}
	var seen [8]class
	n := 0
	for i, id := range p.Choices {
		if i == chosen {
			continue
		}
		c := r.cache[id]
		cl := class{r.level, c.h}
		if c.obs {
			cl = class{r.level + 1, c.hn}
		}
		dup := false
		for _, s := range seen[:n] {
			dup = dup || s == cl
		}
		if dup {
			continue
		}
		if n < len(seen) {
			seen[n] = cl
			n++
		}
		t.add(g.rng, g.maxBack, backtrack{seed: r.seed, parent: r.devs, pos: pos, g: id, level: cl.level, h: cl.h})
	}
}

// settle makes the refinement the last execution calls for, if any: a
// greedy descent (no deviation) lost the next key.
func (g *Guided) settle() {
	if r := &g.cur; r.t != nil && r.stuck >= 0 && len(r.devs) == 0 {
		g.refine(r.t, r.stuck)
	}
	g.cur.stuck = -1
}

// refine is the thesis's refinement (Fig. 2.6) for a descent that got
// stuck before key level of trial t: no goroutine could reach that key
// any more (a branch on the way went the other way). One of the key's
// Before keys, the writes of what the branches leading to it read, is
// inserted before it, one not in the sequence yet, else one again (a
// counter may need several writes); only a key the survey found
// reachable. The trial starts afresh, its backtrack points being for the
// old sequence.
func (g *Guided) refine(t *trial, level int) {
	if t.refined >= maxRefine || level >= len(t.ks) {
		return
	}
	var fresh, again []int
	for _, b := range g.x.g.Keys[t.ks[level]].Before {
		if g.reach == nil || !g.reach[b] {
			continue
		}
		if indexOf(t.ks, b) < 0 {
			fresh = append(fresh, b)
		} else {
			again = append(again, b)
		}
	}
	var c int
	switch {
	case len(fresh) > 0:
		c = fresh[0]
	case len(again) > 0:
		c = again[t.refined%len(again)]
	default:
		return
	}
	t.ks = append(t.ks[:level:level], append([]int{c}, t.ks[level:]...)...)
	t.keys = append(t.keys[:level:level], append([]*keyIndex{g.x.key(c)}, t.keys[level:]...)...)
	t.refined++
	t.back, t.best = nil, 0
}

// mix is splitmix64 of the pair: the tie-breaks of a decision depend
// only on the seed and the decision's index, so a replayed prefix breaks
// its ties the same way.
func mix(seed, x uint64) uint64 {
	z := seed + x*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Status says what the search steers toward and how far it got.
func (g *Guided) Status() string {
	switch {
	case g.loadErr != nil:
		return fmt.Sprintf("no guide (%v): random walk, %d schedules", g.loadErr, g.runs)
	case g.x == nil:
		return fmt.Sprintf("no guide: random walk, %d schedules", g.runs)
	case len(g.trials) == 0 && g.runs == 0:
		return "0 schedules"
	case len(g.trials) == 0:
		return fmt.Sprintf("no target reachable from this test: random walk, %d schedules", g.runs)
	}
	var deep *trial
	back := 0
	for _, t := range g.trials {
		back += len(t.back)
		if deep == nil || t.best*len(deep.keys) > deep.best*len(t.keys) {
			deep = t
		}
	}
	s := g.x.g.Seqs[deep.seq]
	var b strings.Builder
	fmt.Fprintf(&b, "%d schedules; %d key sequences reachable; deepest %d/%d keys toward %s", g.runs, len(g.trials), deep.best, len(deep.keys), s.What)
	fmt.Fprintf(&b, "; %d backtrack points", back)
	refined := 0
	for _, t := range g.trials {
		refined += t.refined
	}
	if refined > 0 {
		fmt.Fprintf(&b, "; %d keys inserted by refinement", refined)
	}
	if g.walk == 0 {
		b.WriteString("; no random walks")
	}
	if g.diverged > 0 {
		fmt.Fprintf(&b, "; %d replay divergences", g.diverged)
	}
	return b.String()
}

// Exhausted is false: guided search samples, it never completes.
func (g *Guided) Exhausted() bool { return false }

// SkipExecution needs nothing: the dead execution's backtrack point was
// taken out of the set, and its tie-breaks came from the stream, which
// moved on.
func (g *Guided) SkipExecution() {}
