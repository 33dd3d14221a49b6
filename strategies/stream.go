package strategies

import "math/rand/v2"

// execRand is the random stream of one execution of a sampling strategy
// (random, PCT): a function of the strategy's seed and the execution's
// number only, not of the executions before it. Any execution of a search
// can thus be drawn without running the others, which is what lets several
// machines each run a range of one search's schedules (gosct test --shard)
// and together run exactly the schedules one process would; saving the
// search needs no generator state either, only the number of executions.
//
// The generator is PCG-DXSM (math/rand/v2), seeded per execution from the
// pair by splitmix64: seeding costs nanoseconds, where Go's older generator
// takes some 50 µs, the time of a whole short execution.
type execRand struct {
	seed int64
	pcg  rand.PCG
	r    *rand.Rand
}

func newExecRand(seed int64) *execRand {
	e := &execRand{seed: seed}
	e.r = rand.New(&e.pcg)
	e.start(1)
	return e
}

// start positions the stream at the beginning of execution n (1-based).
func (e *execRand) start(n int) {
	hi := splitmix64(uint64(e.seed) + uint64(n)*0x9e3779b97f4a7c15)
	e.pcg.Seed(hi, splitmix64(hi^0xd1b54a32d192ed03))
}

// Intn returns a uniform value in [0, n).
func (e *execRand) Intn(n int) int { return e.r.IntN(n) }

func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
