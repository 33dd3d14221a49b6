package strategies

// The trials of guided search: which key sequences a test reaches (the
// survey of its first execution), and each trial's backtrack set.

// add puts b into the trial's backtrack set; when the set is full, b
// replaces a random point that is not better, or is dropped.
func (t *trial) add(rng *savedRand, max int, b backtrack) {
	if len(t.back) < max {
		t.back = append(t.back, b)
		return
	}
	j := rng.Intn(len(t.back))
	if o := t.back[j]; b.level > o.level || b.level == o.level && b.h <= o.h {
		t.back[j] = b
	}
}

// pop takes a backtrack point: a meta level at random among those
// present, then the least distance at that level, ties at random.
func (t *trial) pop(rng *savedRand) backtrack {
	var levels []int
	for _, b := range t.back {
		if indexOf(levels, b.level) < 0 {
			levels = append(levels, b.level)
		}
	}
	lv := levels[rng.Intn(len(levels))]
	var best int32
	var at []int
	for i, b := range t.back {
		if b.level != lv {
			continue
		}
		switch {
		case len(at) == 0 || b.h < best:
			best, at = b.h, append(at[:0], i)
		case b.h == best:
			at = append(at, i)
		}
	}
	i := at[rng.Intn(len(at))]
	b := t.back[i]
	last := len(t.back) - 1
	t.back[i] = t.back[last]
	t.back = t.back[:last]
	return b
}

// surveyStep is the survey of the first execution, at each of its
// goroutine decisions: which keys some goroutine can reach. Goroutines
// appear as the test runs (through callbacks the static analysis cannot
// follow, too), so every decision of the first execution looks at the
// goroutines that moved. At its first decision, the sequences reachable
// already become trials, and the execution is the first of the first
// one; the others join when the execution ends (finishSurvey).
func (g *Guided) surveyStep(p *Point, pos int) {
	r := &g.cur
	if g.reach == nil {
		g.reach = make([]bool, len(g.x.g.Keys))
	}
	for _, id := range p.Choices {
		for len(r.seen) <= id {
			r.seen = append(r.seen, -1)
		}
		op, frames, moves := p.Where.Where(id)
		if r.seen[id] == moves {
			continue
		}
		r.seen[id] = moves
		g.x.reachable(op, frames, g.reach)
	}
	if pos > 0 {
		return
	}
	g.addTrials()
	if len(g.trials) == 0 {
		r.random = true
		return
	}
	g.turn = 1
	r.t = g.trials[0]
	r.t.runs++
	r.t.fresh++
}

// addTrials makes a trial of every sequence all of whose keys are known
// reachable and that is not one yet, in the guide's order.
func (g *Guided) addTrials() {
	have := map[int]bool{}
	for _, t := range g.trials {
		have[t.seq] = true
	}
	for s, seq := range g.x.g.Seqs {
		if have[s] {
			continue
		}
		ok := true
		for _, k := range seq.Keys {
			ok = ok && g.reach[k]
		}
		if ok {
			g.trials = append(g.trials, g.newTrial(s))
		}
	}
}

func (g *Guided) newTrial(seq int) *trial {
	t := &trial{seq: seq}
	for _, k := range g.x.g.Seqs[seq].Keys {
		t.ks = append(t.ks, k)
		t.keys = append(t.keys, g.x.key(k))
	}
	return t
}

// finishSurvey ends the survey: the sequences found reachable during the
// first execution join the trials.
func (g *Guided) finishSurvey() {
	g.surveyed = true
	if g.x != nil && g.reach != nil {
		g.addTrials()
	}
}
