// Package nondet has the sources of nondeterminism the rewriter sends
// through the runtime: random draws, map ranges, the goroutine count,
// crypto/rand, the environment and files.
package nondet

import (
	crand "crypto/rand"
	"math/big"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"runtime"
	"time"
)

type ID string

func Draws() (int, float64, []int, time.Duration) {
	coin := rand.Intn(2)
	f := rand.Float64()
	p := randv2.Perm(3)
	rand.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	d := randv2.N(2 * time.Second)
	d += randv2.N[time.Duration](3)
	pick := randv2.IntN // a function value
	return coin + pick(3), f, p, d
}

// Seeded draws follow the program's seed: left alone.
func Seeded(seed int64) int {
	r := rand.New(rand.NewSource(seed))
	return r.Intn(10)
}

func Ranges(m map[ID]int, s map[string]bool) (n int, last ID) {
	for k, v := range m {
		n += v
		last = k
	}
	for k := range s {
		n += len(k)
	}
	for range s {
		n++
	}
	var k ID
	var v int
L:
	for k, v = range m {
		if v > 3 {
			continue L
		}
		if v < 0 {
			break L
		}
	}
	return n + v, k
}

func Others() (int, []byte, *big.Int, string, error) {
	b := make([]byte, 8)
	crand.Read(b)
	x, err := crand.Int(crand.Reader, big.NewInt(100))
	home := os.Getenv("HOME")
	if _, err := os.ReadFile("x"); err != nil {
		home += "?"
	}
	return runtime.NumGoroutine(), b, x, home, err
}

// A goroutine that locks its thread is not reused once it returns.
func Locked() {
	runtime.LockOSThread()
}
