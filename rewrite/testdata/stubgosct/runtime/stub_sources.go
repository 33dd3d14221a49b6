package runtime

import (
	crand "crypto/rand"
	"io"
	mrand "math/rand"
	mrand2 "math/rand/v2"
	"os"
	"runtime"
)

// The hooks of the sources of nondeterminism, passing through.

func NumGoroutine() int                       { return runtime.NumGoroutine() }
func Stack(buf []byte, all bool) int          { return runtime.Stack(buf, all) }
func RandIntn(n int) int                      { return mrand.Intn(n) }
func RandInt31n(n int32) int32                { return mrand.Int31n(n) }
func RandInt63n(n int64) int64                { return mrand.Int63n(n) }
func RandInt() int                            { return mrand.Int() }
func RandInt31() int32                        { return mrand.Int31() }
func RandInt63() int64                        { return mrand.Int63() }
func RandUint32() uint32                      { return mrand.Uint32() }
func RandUint64() uint64                      { return mrand.Uint64() }
func RandFloat32() float32                    { return mrand.Float32() }
func RandFloat64() float64                    { return mrand.Float64() }
func RandExpFloat64() float64                 { return mrand.ExpFloat64() }
func RandNormFloat64() float64                { return mrand.NormFloat64() }
func RandPerm(n int) []int                    { return mrand.Perm(n) }
func RandShuffle(n int, f func(i, j int))     { mrand.Shuffle(n, f) }
func RandRead(p []byte) (int, error)          { return mrand.Read(p) }
func RandSeed(seed int64)                     { mrand.Seed(seed) }
func Rand2IntN(n int) int                     { return mrand2.IntN(n) }
func Rand2Int32N(n int32) int32               { return mrand2.Int32N(n) }
func Rand2Int64N(n int64) int64               { return mrand2.Int64N(n) }
func Rand2UintN(n uint) uint                  { return mrand2.UintN(n) }
func Rand2Uint32N(n uint32) uint32            { return mrand2.Uint32N(n) }
func Rand2Uint64N(n uint64) uint64            { return mrand2.Uint64N(n) }
func Rand2N[Int integer](n Int) Int           { return mrand2.N(n) }
func Rand2Int() int                           { return mrand2.Int() }
func Rand2Int32() int32                       { return mrand2.Int32() }
func Rand2Int64() int64                       { return mrand2.Int64() }
func Rand2Uint() uint                         { return mrand2.Uint() }
func Rand2Uint32() uint32                     { return mrand2.Uint32() }
func Rand2Uint64() uint64                     { return mrand2.Uint64() }
func Rand2Float32() float32                   { return mrand2.Float32() }
func Rand2Float64() float64                   { return mrand2.Float64() }
func Rand2ExpFloat64() float64                { return mrand2.ExpFloat64() }
func Rand2NormFloat64() float64               { return mrand2.NormFloat64() }
func Rand2Perm(n int) []int                   { return mrand2.Perm(n) }
func Rand2Shuffle(n int, f func(i, j int))    { mrand2.Shuffle(n, f) }
func CryptoRead(b []byte) (int, error)        { return crand.Read(b) }
func CryptoText() string                      { return crand.Text() }
func CryptoReader() io.Reader                 { return crand.Reader }
func Getenv(k string) string                  { return os.Getenv(k) }
func LookupEnv(k string) (string, bool)       { return os.LookupEnv(k) }
func ReadFile(n string) ([]byte, error)       { return os.ReadFile(n) }
func ReadDir(n string) ([]os.DirEntry, error) { return os.ReadDir(n) }

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// MapIter iterates over a snapshot of a map's keys, reading each value
// when its entry is reached.
type MapIter[K comparable, V any] struct {
	m    map[K]V
	keys []K
	i    int
}

func MapRange[M ~map[K]V, K comparable, V any](m M) MapIter[K, V] {
	it := MapIter[K, V]{m: m}
	for k := range m {
		it.keys = append(it.keys, k)
	}
	return it
}

func (it *MapIter[K, V]) Next() (k K, v V, ok bool) {
	for it.i < len(it.keys) {
		k = it.keys[it.i]
		it.i++
		if v, ok = it.m[k]; ok {
			return k, v, true
		}
	}
	return k, v, false
}

func LockOSThread() { runtime.LockOSThread() }
