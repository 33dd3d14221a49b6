package strategies

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
)

// Random ("random") takes a uniformly random choice at every point, of
// every kind, like SCTBench's controlled random scheduler: no history, no
// special case for yields. It never exhausts. The decisions of execution n
// are drawn from a stream of the seed and n alone (execRand): the same seed
// gives the same schedules, and any range of them can be run by itself
// (Seek).
type Random struct {
	rng  *execRand
	runs int
}

// NewRandom returns a random strategy seeded from o.Seed.
func NewRandom(o Options) *Random { return &Random{rng: newExecRand(o.Seed)} }

// NewExecution always returns true: a random search never ends.
func (r *Random) NewExecution() bool {
	r.runs++
	r.rng.start(r.runs)
	return true
}

// Next picks uniformly among p.Choices.
func (r *Random) Next(p *Point) int { return r.rng.Intn(len(p.Choices)) }

// Seek makes the next execution number n+1, drawn as in a search that ran
// the n before it.
func (r *Random) Seek(n int) {
	r.runs = n
	r.rng.start(n + 1)
}

func init() {
	register(Info{Name: "random", Summary: "a random choice at every point", Sampling: true, Ranged: true, Resumes: true, New: func(o Options) Strategy { return NewRandom(o) }})
}

// savedRandom is the saved state of a Random: how many executions it
// prepared (each draws from a stream of its own, so there is no generator
// to save), and the seed, so that a strategy of another seed refuses it.
type savedRandom struct {
	Format   int    `json:"format"`
	Strategy string `json:"strategy"`
	Seed     int64  `json:"seed"`
	Runs     int    `json:"runs"`
}

// Save writes the number of executions: the resumed strategy takes the
// decisions the uninterrupted one would have.
func (r *Random) Save(w io.Writer) error {
	return json.NewEncoder(w).Encode(savedRandom{Format: streamFormat, Strategy: "random", Seed: r.rng.seed, Runs: r.runs})
}

// Load restores what Save wrote.
func (r *Random) Load(rd io.Reader) error {
	var v savedRandom
	if err := decodeSavedFormat(rd, "random", streamFormat, &v, &v.Format, &v.Strategy); err != nil {
		return err
	}
	if v.Seed != r.rng.seed {
		return fmt.Errorf("saved random state was drawn with seed %d, not %d", v.Seed, r.rng.seed)
	}
	if v.Runs < 0 {
		return fmt.Errorf("saved random state has %d executions", v.Runs)
	}
	r.Seek(v.Runs)
	return nil
}

// savedRand is a math/rand generator whose position can be saved, drawing
// exactly the values rand.New(rand.NewSource(seed)) draws, so every seed
// gives the schedules it gave before. It is dfsrb's single stream across
// executions (random and PCT draw each execution from its own: execRand).
type savedRand struct {
	*rand.Rand
	src *rngSource
}

func newSavedRand(seed int64) *savedRand {
	src := &rngSource{}
	src.Seed(seed)
	return &savedRand{Rand: rand.New(src), src: src}
}

// Go's generator (math/rand's rngSource, an additive lagged Fibonacci
// generator) cannot be read or serialized. But its whole state is its
// feedback register of rngLen values, and every value it returns is the new
// content of one register cell, the cells taken in turn: after rngLen
// values the register holds exactly the last rngLen values returned. So
// rngSource draws its first rngLen values from Go's generator, keeping each
// in its own copy of the register, and then steps the register itself, as
// Go's does (math/rand/rng.go): the stream is Go's, and the state is the
// register and the count, O(1) to save and restore.
const (
	rngLen = 607
	rngTap = 273
)

type rngSource struct {
	seed      int64
	n         uint64        // values drawn
	proxy     rand.Source64 // Go's generator, for the first rngLen values
	vec       [rngLen]int64
	tap, feed int
}

// Seed restarts the stream of seed.
func (s *rngSource) Seed(seed int64) {
	s.seed, s.n = seed, 0
	s.proxy = rand.NewSource(seed).(rand.Source64)
	s.tap, s.feed = 0, rngLen-rngTap
}

// Uint64 is rngSource.Uint64 of math/rand.
func (s *rngSource) Uint64() uint64 {
	if s.proxy != nil {
		return s.record()
	}
	s.tap--
	if s.tap < 0 {
		s.tap += rngLen
	}
	s.feed--
	if s.feed < 0 {
		s.feed += rngLen
	}
	x := s.vec[s.feed] + s.vec[s.tap]
	s.vec[s.feed] = x
	s.n++
	return uint64(x)
}

// record draws one of the first rngLen values from Go's generator, and
// keeps it in the register.
func (s *rngSource) record() uint64 {
	s.tap--
	if s.tap < 0 {
		s.tap += rngLen
	}
	s.feed--
	if s.feed < 0 {
		s.feed += rngLen
	}
	x := int64(s.proxy.Uint64())
	s.vec[s.feed] = x
	if s.n++; s.n == rngLen {
		s.proxy = nil // the register is complete
	}
	return uint64(x)
}

// Int63 is rngSource.Int63 of math/rand. (Uint64's body again: this is
// the hot path of every random decision.)
func (s *rngSource) Int63() int64 {
	if s.proxy != nil {
		return int64(s.record() &^ (1 << 63))
	}
	s.tap--
	if s.tap < 0 {
		s.tap += rngLen
	}
	s.feed--
	if s.feed < 0 {
		s.feed += rngLen
	}
	x := s.vec[s.feed] + s.vec[s.tap]
	s.vec[s.feed] = x
	s.n++
	return int64(uint64(x) &^ (1 << 63))
}

// randState is a savedRand's position: its seed, how many values were
// drawn, and, once there are rngLen of them, the register (little-endian
// 64-bit values).
type randState struct {
	Seed     int64  `json:"seed"`
	Draws    uint64 `json:"draws"`
	Register []byte `json:"register,omitempty"`
}

func (r *savedRand) state() randState {
	st := randState{Seed: r.src.seed, Draws: r.src.n}
	if r.src.proxy == nil {
		st.Register = make([]byte, 8*rngLen)
		for i, v := range r.src.vec {
			binary.LittleEndian.PutUint64(st.Register[8*i:], uint64(v))
		}
	}
	return st
}

// restore moves the generator to st. The seed must be the generator's own:
// a saved state belongs to a strategy created with the same options.
func (r *savedRand) restore(st randState) error {
	s := r.src
	if st.Seed != s.seed {
		return fmt.Errorf("saved state was drawn with seed %d, not %d", st.Seed, s.seed)
	}
	s.Seed(st.Seed)
	if st.Draws < rngLen {
		for s.n < st.Draws {
			s.Uint64()
		}
		return nil
	}
	if len(st.Register) != 8*rngLen {
		return fmt.Errorf("saved random state: register of %d bytes, want %d", len(st.Register), 8*rngLen)
	}
	for i := range s.vec {
		s.vec[i] = int64(binary.LittleEndian.Uint64(st.Register[8*i:]))
	}
	s.proxy, s.n = nil, st.Draws
	// Both indices go down by one per value, from 0 and rngLen-rngTap.
	k := int(st.Draws % rngLen)
	s.tap = (rngLen - k) % rngLen
	s.feed = (2*rngLen - rngTap - k) % rngLen
	return nil
}

// stateFormat is the version of the saved states of dfsrb and portfolio.
const stateFormat = 1

// streamFormat is the version of the saved states of random and pct since
// their executions draw from streams of their own (execRand).
const streamFormat = 2

// decodeSaved reads one saved state into v and checks its format and
// strategy name, which v's fields format and strategy point to.
func decodeSaved(rd io.Reader, name string, v any, format *int, strategy *string) error {
	return decodeSavedFormat(rd, name, stateFormat, v, format, strategy)
}

// decodeSavedFormat is decodeSaved for a state of format want.
func decodeSavedFormat(rd io.Reader, name string, want int, v any, format *int, strategy *string) error {
	if err := json.NewDecoder(rd).Decode(v); err != nil {
		return fmt.Errorf("reading saved %s state: %v", name, err)
	}
	if *format != want {
		return fmt.Errorf("saved %s state has format %d, want %d (saved by another version of gosct: delete it to start again)", name, *format, want)
	}
	if *strategy != name {
		return fmt.Errorf("saved state is %q, not %q", *strategy, name)
	}
	return nil
}
