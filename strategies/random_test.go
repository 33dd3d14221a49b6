package strategies

import (
	"math"
	"testing"
)

func TestRandomDeterministic(t *testing.T) {
	a, b := NewRandom(Options{Seed: 42}), NewRandom(Options{Seed: 42})
	c := NewRandom(Options{Seed: 43})
	p := &Point{Kind: Goroutine, Choices: []int{0, 1, 2, 3, 4}}
	same := true
	for i := 0; i < 1000; i++ {
		x, y, z := a.Next(p), b.Next(p), c.Next(p)
		if x != y {
			t.Fatalf("decision %d: %d != %d with the same seed", i, x, y)
		}
		if x != z {
			same = false
		}
	}
	if same {
		t.Fatal("seeds 42 and 43 took the same 1000 decisions")
	}
}

func TestRandomUniform(t *testing.T) {
	// Chi-square test of the choice among 5, both kinds: 99.9% quantile of
	// chi2 with 4 degrees of freedom is 18.47.
	r := NewRandom(Options{Seed: 1})
	for _, k := range []Kind{Goroutine, Case} {
		p := &Point{Kind: k, Choices: []int{0, 3, 4, 7, 9}}
		const n = 50000
		counts := make([]float64, 5)
		for i := 0; i < n; i++ {
			counts[r.Next(p)]++
		}
		chi := 0.0
		for _, c := range counts {
			chi += math.Pow(c-n/5.0, 2) / (n / 5.0)
		}
		if chi > 18.47 {
			t.Errorf("%v: counts %v, chi2 %.1f", k, counts, chi)
		}
	}
}

func TestRandomFindsFig1(t *testing.T) {
	r := NewRandom(Options{Seed: 5})
	if firstBug(explore(t, fig1(), r, 1000)) == 0 {
		t.Fatal("random never hit the Fig. 1 assertion in 1000 executions")
	}
}
