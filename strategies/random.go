package strategies

import "math/rand"

// Random ("random") takes a uniformly random choice at every point, of
// every kind, like SCTBench's controlled random scheduler: no history, no
// special case for yields. It never exhausts. The same seed gives the same
// sequence of decisions.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random strategy seeded from o.Seed.
func NewRandom(o Options) *Random { return &Random{rng: rand.New(rand.NewSource(o.Seed))} }

// NewExecution always returns true: a random search never ends.
func (r *Random) NewExecution() bool { return true }

// Next picks uniformly among p.Choices.
func (r *Random) Next(p *Point) int { return r.rng.Intn(len(p.Choices)) }

func init() { register("random", func(o Options) Strategy { return NewRandom(o) }) }
