package runtime

import (
	"math"
	mrand "math/rand"
	mrand2 "math/rand/v2"
)

// Randomness. The rewriter replaces calls of the package-level functions
// of math/rand and math/rand/v2 in instrumented code with these hooks
// (methods of a *rand.Rand the program made are left alone: their values
// follow the program's seed). Outside an execution, or with the rand
// control off, a hook calls the function it replaces. Inside one:
//
//   - a draw among at most valueLimit values (Intn(n), IntN(n), N(n),
//     Int31n, Int63n, Int32N, Int64N, UintN, Uint32N, Uint64N with
//     0 < n <= valueLimit) is a decision of kind value: the strategy picks
//     the result, so a systematic strategy tries both branches of
//     rand.Intn(2) == 0, and the trace records it;
//   - Perm(n) and Shuffle(n, swap) with n <= permLimit are Fisher-Yates
//     shuffles whose every step is such a decision (at most 24 orders);
//   - every other draw comes from the execution's own random source,
//     seeded from its inputs (inputs.go): the same inputs draw the same
//     values, so a replay does.
//
// Drawing is not a scheduling point: the global source is safe for
// concurrent use, and the draws of different goroutines are ordered by
// the schedule anyway.

const (
	// valueLimit is the largest n for which a draw in [0, n) is a
	// decision: coins, dice, a choice among a few replicas. Larger ranges
	// (percentages, jitter) would multiply a systematic search by n.
	valueLimit = 8
	// permLimit is the largest n for which Perm and Shuffle are decisions.
	permLimit = 4
)

// randExec is enter for the random hooks: nil, nil when the call passes
// through.
//
//go:norace
func randExec() (*execution, *goroutine) {
	e, me := enter()
	if e == nil || e.set.free&ctlRand != 0 {
		return nil, nil
	}
	return e, me
}

// Seeding. After the program calls rand.Seed(s), Go's package-level
// math/rand functions return the sequence the seed fixes, and a test may
// rely on that (to compare two runs of code drawing a random mask, say):
// the execution's draws from math/rand are then Go's own, from the
// reseeded global source, until it ends. Seed is a no-op where Go makes it
// one (GODEBUG randseednop=1, the default of modules at go 1.24 on), and so
// is it here.

// RandSeed replaces math/rand.Seed.
//
//go:norace
func RandSeed(seed int64) {
	mrand.Seed(seed)
	e, _ := randExec()
	if e == nil {
		return
	}
	if mrand.Int63() != mrand.New(mrand.NewSource(seed)).Int63() {
		return // a no-op (randseednop)
	}
	mrand.Seed(seed) // undo the draw of the check
	e.in.seeded.Store(true)
}

// randExec1 is randExec for math/rand's hooks: nil, nil once the program
// seeded the global source.
//
//go:norace
func randExec1() (*execution, *goroutine) {
	e, me := randExec()
	if e != nil && e.in.seeded.Load() {
		return nil, nil
	}
	return e, me
}

// bounded1 and unbounded1 are bounded and unbounded for math/rand.
//
//go:norace
func bounded1[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T, fn string, pass func(T) T, src func(*execution, T) T) T {
	if e, _ := enter(); e != nil && e.in.seeded.Load() {
		return passed(fn, pass(n), u64[T])
	}
	return bounded(n, fn, pass, src)
}

//go:norace
func unbounded1[T any](fn string, pass func() T, src func(*execution) T, bits func(T) uint64) T {
	if e, _ := enter(); e != nil && e.in.seeded.Load() {
		return passed(fn, pass(), bits)
	}
	return unbounded(fn, pass, src, bits)
}

// passed notes, in a detailed execution with the rand control off, the
// value a draw that passed through to Go's source returned: the
// determinism check then names the draw.
//
//go:norace
func passed[T any](fn string, v T, bits func(T) uint64) T {
	noteDrawnHere(ctlRand)
	if e, _ := enter(); e != nil && e.set.detailed {
		e.mu.Lock()
		e.in.observe(len(e.trail), "rand", fn, hashUint(bits(v)), false)
		e.mu.Unlock()
	}
	return v
}

// value is a value decision for a draw in [0, n), 0 < n <= valueLimit.
//
//go:norace
func value(e *execution, me *goroutine, n int, fn string) int {
	e.mu.Lock()
	v := e.chooseValue(me, n, fn+"("+itoa(n)+")")
	e.lastProgress = e.steps // a draw changes the source: not a livelock
	e.mu.Unlock()
	return v
}

// draw takes a value from the execution's source with f and notes it.
// A draw changes the source, state every goroutine shares (math/rand's
// global source): it is progress, as a write is, for the livelock rule.
// A loop that draws can end on what it draws, and a bounded loop of many
// draws that reads the same few locations (sethvargo/go-retry's 100,000
// jitters) was reported as a livelock.
//
//go:norace
func draw[T any](e *execution, fn string, f func() T, bits func(T) uint64) T {
	e.mu.Lock()
	v := f()
	e.lastProgress = e.steps
	if e.set.detailed {
		e.in.observe(len(e.trail), "rand", fn, hashUint(bits(v)), true)
	}
	e.mu.Unlock()
	return v
}

//go:norace
func u64[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](v T) uint64 { return uint64(v) }

//go:norace
func f64bits(v float64) uint64 { return math.Float64bits(v) }

//go:norace
func f32bits(v float32) uint64 { return uint64(math.Float32bits(v)) }

// bounded is the hook body of a draw in [0, n): a decision when n is
// small, a draw from the source otherwise, Go's own function (and its
// panic) for n <= 0.
//
//go:norace
func bounded[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T, fn string, pass func(T) T, src func(*execution, T) T) T {
	e, me := randExec()
	if e == nil || n <= 0 {
		return passed(fn, pass(n), u64[T])
	}
	if uint64(n) <= valueLimit {
		return T(value(e, me, int(n), fn))
	}
	return draw(e, fn, func() T { return src(e, n) }, u64[T])
}

// RandIntn replaces math/rand.Intn.
//
//go:norace
func RandIntn(n int) int {
	return bounded1(n, "rand.Intn", mrand.Intn, func(e *execution, n int) int { return e.in.rnd(e).Intn(n) })
}

// RandInt31n replaces math/rand.Int31n.
//
//go:norace
func RandInt31n(n int32) int32 {
	return bounded1(n, "rand.Int31n", mrand.Int31n, func(e *execution, n int32) int32 { return e.in.rnd(e).Int31n(n) })
}

// RandInt63n replaces math/rand.Int63n.
//
//go:norace
func RandInt63n(n int64) int64 {
	return bounded1(n, "rand.Int63n", mrand.Int63n, func(e *execution, n int64) int64 { return e.in.rnd(e).Int63n(n) })
}

// unbounded is the hook body of a draw with no bound.
//
//go:norace
func unbounded[T any](fn string, pass func() T, src func(*execution) T, bits func(T) uint64) T {
	e, _ := randExec()
	if e == nil {
		return passed(fn, pass(), bits)
	}
	return draw(e, fn, func() T { return src(e) }, bits)
}

// RandInt replaces math/rand.Int.
//
//go:norace
func RandInt() int {
	return unbounded1("rand.Int", mrand.Int, func(e *execution) int { return e.in.rnd(e).Int() }, u64[int])
}

// RandInt31 replaces math/rand.Int31.
//
//go:norace
func RandInt31() int32 {
	return unbounded1("rand.Int31", mrand.Int31, func(e *execution) int32 { return e.in.rnd(e).Int31() }, u64[int32])
}

// RandInt63 replaces math/rand.Int63.
//
//go:norace
func RandInt63() int64 {
	return unbounded1("rand.Int63", mrand.Int63, func(e *execution) int64 { return e.in.rnd(e).Int63() }, u64[int64])
}

// RandUint32 replaces math/rand.Uint32.
//
//go:norace
func RandUint32() uint32 {
	return unbounded1("rand.Uint32", mrand.Uint32, func(e *execution) uint32 { return e.in.rnd(e).Uint32() }, u64[uint32])
}

// RandUint64 replaces math/rand.Uint64.
//
//go:norace
func RandUint64() uint64 {
	return unbounded1("rand.Uint64", mrand.Uint64, func(e *execution) uint64 { return e.in.rnd(e).Uint64() }, u64[uint64])
}

// RandFloat32 replaces math/rand.Float32.
//
//go:norace
func RandFloat32() float32 {
	return unbounded1("rand.Float32", mrand.Float32, func(e *execution) float32 { return e.in.rnd(e).Float32() }, f32bits)
}

// RandFloat64 replaces math/rand.Float64.
//
//go:norace
func RandFloat64() float64 {
	return unbounded1("rand.Float64", mrand.Float64, func(e *execution) float64 { return e.in.rnd(e).Float64() }, f64bits)
}

// RandExpFloat64 replaces math/rand.ExpFloat64.
//
//go:norace
func RandExpFloat64() float64 {
	return unbounded1("rand.ExpFloat64", mrand.ExpFloat64, func(e *execution) float64 { return e.in.rnd(e).ExpFloat64() }, f64bits)
}

// RandNormFloat64 replaces math/rand.NormFloat64.
//
//go:norace
func RandNormFloat64() float64 {
	return unbounded1("rand.NormFloat64", mrand.NormFloat64, func(e *execution) float64 { return e.in.rnd(e).NormFloat64() }, f64bits)
}

// RandPerm replaces math/rand.Perm.
//
//go:norace
func RandPerm(n int) []int {
	e, me := randExec1()
	if e == nil || n < 0 {
		return passed("rand.Perm", mrand.Perm(n), permBits)
	}
	if n <= permLimit {
		return smallPerm(e, me, n, "rand.Perm")
	}
	return draw(e, "rand.Perm", func() []int { return e.in.rnd(e).Perm(n) }, permBits)
}

// RandShuffle replaces math/rand.Shuffle.
//
//go:norace
func RandShuffle(n int, swap func(i, j int)) {
	e, me := randExec1()
	if e == nil || n < 0 {
		h := uint64(0)
		mrand.Shuffle(n, func(i, j int) { h = h*31 + uint64(j); swap(i, j) })
		passed("rand.Shuffle", h, u64[uint64])
		return
	}
	shuffle(e, me, n, "rand.Shuffle", swap, func(i int) int { return e.in.rnd(e).Intn(i) })
}

// RandRead replaces math/rand.Read.
//
//go:norace
func RandRead(p []byte) (int, error) {
	e, _ := randExec1()
	if e == nil {
		n, err := mrand.Read(p)
		passed("rand.Read", hashBytes(p), u64[uint64])
		return n, err
	}
	e.mu.Lock()
	e.in.fill(e, p) // not Rand.Read, whose buffer would be shared between goroutines
	e.in.observe(len(e.trail), "rand", "rand.Read", hashBytes(p), true)
	e.mu.Unlock()
	return len(p), nil
}

// smallPerm is a permutation of n <= permLimit chosen by value decisions:
// Fisher-Yates, the value at step i choosing among the i+1 first entries.
//
//go:norace
func smallPerm(e *execution, me *goroutine, n int, fn string) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := value(e, me, i+1, fn)
		m[i], m[j] = m[j], m[i]
	}
	return m
}

// shuffle is Shuffle for both packages: value decisions when n is small,
// else Fisher-Yates with intn(i) drawing in [0, i) from the source. swap
// is user code: it runs without the runtime's lock.
//
//go:norace
func shuffle(e *execution, me *goroutine, n int, fn string, swap func(i, j int), intn func(int) int) {
	h := uint64(0)
	for i := n - 1; i > 0; i-- {
		var j int
		if n <= permLimit {
			j = value(e, me, i+1, fn)
		} else {
			e.mu.Lock()
			j = intn(i + 1)
			h = h*31 + uint64(j)
			e.mu.Unlock()
		}
		swap(i, j)
	}
	if n > permLimit {
		e.mu.Lock()
		e.in.observe(len(e.trail), "rand", fn, hashUint(h), true)
		e.mu.Unlock()
	}
}

//go:norace
func permBits(p []int) uint64 {
	h := uint64(0)
	for _, v := range p {
		h = h*31 + uint64(v)
	}
	return h
}

// The math/rand/v2 hooks.

// Rand2IntN replaces math/rand/v2.IntN.
//
//go:norace
func Rand2IntN(n int) int {
	return bounded(n, "rand.IntN", mrand2.IntN, func(e *execution, n int) int { return e.in.rnd2(e).IntN(n) })
}

// Rand2Int32N replaces math/rand/v2.Int32N.
//
//go:norace
func Rand2Int32N(n int32) int32 {
	return bounded(n, "rand.Int32N", mrand2.Int32N, func(e *execution, n int32) int32 { return e.in.rnd2(e).Int32N(n) })
}

// Rand2Int64N replaces math/rand/v2.Int64N.
//
//go:norace
func Rand2Int64N(n int64) int64 {
	return bounded(n, "rand.Int64N", mrand2.Int64N, func(e *execution, n int64) int64 { return e.in.rnd2(e).Int64N(n) })
}

// Rand2UintN replaces math/rand/v2.UintN.
//
//go:norace
func Rand2UintN(n uint) uint {
	return bounded(n, "rand.UintN", mrand2.UintN, func(e *execution, n uint) uint { return e.in.rnd2(e).UintN(n) })
}

// Rand2Uint32N replaces math/rand/v2.Uint32N.
//
//go:norace
func Rand2Uint32N(n uint32) uint32 {
	return bounded(n, "rand.Uint32N", mrand2.Uint32N, func(e *execution, n uint32) uint32 { return e.in.rnd2(e).Uint32N(n) })
}

// Rand2Uint64N replaces math/rand/v2.Uint64N.
//
//go:norace
func Rand2Uint64N(n uint64) uint64 {
	return bounded(n, "rand.Uint64N", mrand2.Uint64N, func(e *execution, n uint64) uint64 { return e.in.rnd2(e).Uint64N(n) })
}

// integer is the constraint of math/rand/v2.N.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Rand2N replaces math/rand/v2.N.
//
//go:norace
func Rand2N[Int integer](n Int) Int {
	e, me := randExec()
	if e == nil || n <= 0 {
		return passed("rand.N", mrand2.N(n), func(v Int) uint64 { return uint64(v) })
	}
	if uint64(n) <= valueLimit {
		return Int(value(e, me, int(n), "rand.N"))
	}
	return Int(draw(e, "rand.N", func() uint64 { return e.in.rnd2(e).Uint64N(uint64(n)) }, u64[uint64]))
}

// Rand2Int replaces math/rand/v2.Int.
//
//go:norace
func Rand2Int() int {
	return unbounded("rand.Int", mrand2.Int, func(e *execution) int { return e.in.rnd2(e).Int() }, u64[int])
}

// Rand2Int32 replaces math/rand/v2.Int32.
//
//go:norace
func Rand2Int32() int32 {
	return unbounded("rand.Int32", mrand2.Int32, func(e *execution) int32 { return e.in.rnd2(e).Int32() }, u64[int32])
}

// Rand2Int64 replaces math/rand/v2.Int64.
//
//go:norace
func Rand2Int64() int64 {
	return unbounded("rand.Int64", mrand2.Int64, func(e *execution) int64 { return e.in.rnd2(e).Int64() }, u64[int64])
}

// Rand2Uint replaces math/rand/v2.Uint.
//
//go:norace
func Rand2Uint() uint {
	return unbounded("rand.Uint", mrand2.Uint, func(e *execution) uint { return e.in.rnd2(e).Uint() }, u64[uint])
}

// Rand2Uint32 replaces math/rand/v2.Uint32.
//
//go:norace
func Rand2Uint32() uint32 {
	return unbounded("rand.Uint32", mrand2.Uint32, func(e *execution) uint32 { return e.in.rnd2(e).Uint32() }, u64[uint32])
}

// Rand2Uint64 replaces math/rand/v2.Uint64.
//
//go:norace
func Rand2Uint64() uint64 {
	return unbounded("rand.Uint64", mrand2.Uint64, func(e *execution) uint64 { return e.in.rnd2(e).Uint64() }, u64[uint64])
}

// Rand2Float32 replaces math/rand/v2.Float32.
//
//go:norace
func Rand2Float32() float32 {
	return unbounded("rand.Float32", mrand2.Float32, func(e *execution) float32 { return e.in.rnd2(e).Float32() }, f32bits)
}

// Rand2Float64 replaces math/rand/v2.Float64.
//
//go:norace
func Rand2Float64() float64 {
	return unbounded("rand.Float64", mrand2.Float64, func(e *execution) float64 { return e.in.rnd2(e).Float64() }, f64bits)
}

// Rand2ExpFloat64 replaces math/rand/v2.ExpFloat64.
//
//go:norace
func Rand2ExpFloat64() float64 {
	return unbounded("rand.ExpFloat64", mrand2.ExpFloat64, func(e *execution) float64 { return e.in.rnd2(e).ExpFloat64() }, f64bits)
}

// Rand2NormFloat64 replaces math/rand/v2.NormFloat64.
//
//go:norace
func Rand2NormFloat64() float64 {
	return unbounded("rand.NormFloat64", mrand2.NormFloat64, func(e *execution) float64 { return e.in.rnd2(e).NormFloat64() }, f64bits)
}

// Rand2Perm replaces math/rand/v2.Perm.
//
//go:norace
func Rand2Perm(n int) []int {
	e, me := randExec()
	if e == nil || n < 0 {
		return passed("rand.Perm", mrand2.Perm(n), permBits)
	}
	if n <= permLimit {
		return smallPerm(e, me, n, "rand.Perm")
	}
	return draw(e, "rand.Perm", func() []int { return e.in.rnd2(e).Perm(n) }, permBits)
}

// Rand2Shuffle replaces math/rand/v2.Shuffle.
//
//go:norace
func Rand2Shuffle(n int, swap func(i, j int)) {
	e, me := randExec()
	if e == nil || n < 0 {
		h := uint64(0)
		mrand2.Shuffle(n, func(i, j int) { h = h*31 + uint64(j); swap(i, j) })
		passed("rand.Shuffle", h, u64[uint64])
		return
	}
	shuffle(e, me, n, "rand.Shuffle", swap, func(i int) int { return e.in.rnd2(e).IntN(i) })
}
