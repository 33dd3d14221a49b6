package strategies

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
)

// Random ("random") takes a uniformly random choice at every point, of
// every kind, like SCTBench's controlled random scheduler: no history, no
// special case for yields. It never exhausts. The same seed gives the same
// sequence of decisions.
type Random struct {
	rng  *savedRand
	runs int
}

// NewRandom returns a random strategy seeded from o.Seed.
func NewRandom(o Options) *Random { return &Random{rng: newSavedRand(o.Seed)} }

// NewExecution always returns true: a random search never ends.
func (r *Random) NewExecution() bool { r.runs++; return true }

// Next picks uniformly among p.Choices.
func (r *Random) Next(p *Point) int { return r.rng.Intn(len(p.Choices)) }

func init() { register("random", func(o Options) Strategy { return NewRandom(o) }) }

// savedRandom is the saved state of a Random.
type savedRandom struct {
	Format   int       `json:"format"`
	Strategy string    `json:"strategy"`
	Runs     int       `json:"runs"`
	Rand     randState `json:"rand"`
}

// Save writes the position in the random stream: the resumed strategy takes
// the decisions the uninterrupted one would have.
func (r *Random) Save(w io.Writer) error {
	return json.NewEncoder(w).Encode(savedRandom{Format: stateFormat, Strategy: "random", Runs: r.runs, Rand: r.rng.state()})
}

// Load restores what Save wrote.
func (r *Random) Load(rd io.Reader) error {
	var v savedRandom
	if err := decodeSaved(rd, "random", &v, &v.Format, &v.Strategy); err != nil {
		return err
	}
	if err := r.rng.restore(v.Rand); err != nil {
		return err
	}
	r.runs = v.Runs
	return nil
}

// savedRand is a math/rand generator whose position can be saved. Go's
// generator cannot be serialized, so it counts the values drawn from its
// source; restoring reseeds and draws as many again. That keeps the exact
// streams (and so the schedules every seed gave before) at the price of a
// restore linear in the draws, a few nanoseconds each.
type savedRand struct {
	*rand.Rand
	src *countingSource
}

type countingSource struct {
	seed int64
	src  rand.Source64
	n    uint64
}

func (s *countingSource) Int63() int64    { s.n++; return s.src.Int63() }
func (s *countingSource) Uint64() uint64  { s.n++; return s.src.Uint64() }
func (s *countingSource) Seed(seed int64) { s.src.Seed(seed); s.seed, s.n = seed, 0 }

func newSavedRand(seed int64) *savedRand {
	src := &countingSource{seed: seed, src: rand.NewSource(seed).(rand.Source64)}
	return &savedRand{Rand: rand.New(src), src: src}
}

// randState is a savedRand's position: its seed and how many values were
// drawn from it.
type randState struct {
	Seed  int64  `json:"seed"`
	Draws uint64 `json:"draws"`
}

func (r *savedRand) state() randState { return randState{Seed: r.src.seed, Draws: r.src.n} }

// restore moves the generator to st. The seed must be the generator's own:
// a saved state belongs to a strategy created with the same options.
func (r *savedRand) restore(st randState) error {
	if st.Seed != r.src.seed {
		return fmt.Errorf("saved state was drawn with seed %d, not %d", st.Seed, r.src.seed)
	}
	r.src.Seed(st.Seed)
	for i := uint64(0); i < st.Draws; i++ {
		r.src.src.Int63()
	}
	r.src.n = st.Draws
	return nil
}

// stateFormat is the version of the saved states of random, pct, dfsrb and
// portfolio.
const stateFormat = 1

// decodeSaved reads one saved state into v and checks its format and
// strategy name, which v's fields format and strategy point to.
func decodeSaved(rd io.Reader, name string, v any, format *int, strategy *string) error {
	if err := json.NewDecoder(rd).Decode(v); err != nil {
		return fmt.Errorf("reading saved %s state: %v", name, err)
	}
	if *format != stateFormat {
		return fmt.Errorf("saved %s state has format %d, want %d", name, *format, stateFormat)
	}
	if *strategy != name {
		return fmt.Errorf("saved state is %q, not %q", *strategy, name)
	}
	return nil
}
