package strategies

import (
	"bytes"
	"math"
	"math/rand"
	"strings"
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

// checkResume runs mk's strategy n executions on p straight, then again
// cut at each of cuts: k executions, Save, Load into a fresh strategy, n-k
// executions. Every schedule must be the same, and saving the loaded
// strategy must give the bytes that were loaded.
func checkResume(t *testing.T, mk func() Strategy, p func() *prog, n int, cuts ...int) {
	t.Helper()
	full := explore(t, p(), mk(), n)
	for _, cut := range cuts {
		first := mk()
		part := explore(t, p(), first, cut)
		var buf bytes.Buffer
		if err := first.(Saver).Save(&buf); err != nil {
			t.Fatal(err)
		}
		second := mk()
		if err := second.(Saver).Load(bytes.NewReader(buf.Bytes())); err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		var again bytes.Buffer
		if err := second.(Saver).Save(&again); err != nil {
			t.Fatal(err)
		}
		if again.String() != buf.String() {
			t.Fatalf("cut at %d: saved %s, loaded and saved again %s", cut, buf.String(), again.String())
		}
		rest := explore(t, p(), second, n-len(part))
		got := append(part, rest...)
		if len(got) != len(full) {
			t.Fatalf("cut at %d: %d executions, want %d", cut, len(got), len(full))
		}
		for i := range got {
			if got[i].schedule != full[i].schedule {
				t.Fatalf("cut at %d: schedule %d is %s, want %s", cut, i, got[i].schedule, full[i].schedule)
			}
		}
		if st, ok := second.(Status); ok {
			if st.Status() != statusOf(t, mk, p, n) {
				t.Fatalf("cut at %d: status %q, want %q", cut, st.Status(), statusOf(t, mk, p, n))
			}
		}
	}
}

// statusOf is the Status of mk's strategy after n executions of p.
func statusOf(t *testing.T, mk func() Strategy, p func() *prog, n int) string {
	s := mk()
	explore(t, p(), s, n)
	return s.(Status).Status()
}

func TestRandomResume(t *testing.T) {
	mk := func() Strategy { return NewRandom(Options{Seed: 7}) }
	checkResume(t, mk, fig2, 300, 0, 1, 17, 150, 299, 300)
}

func TestRandomLoadRejectsOtherSeed(t *testing.T) {
	a := NewRandom(Options{Seed: 1})
	explore(t, fig1(), a, 5)
	var buf bytes.Buffer
	if err := a.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := NewRandom(Options{Seed: 2}).Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Fatal("a random strategy of seed 2 loaded the state of seed 1")
	}
	if err := NewPCT(Options{Seed: 1}).Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Fatal("pct loaded a random state")
	}
	if err := NewRandom(Options{Seed: 1}).Load(strings.NewReader(`{"format":99,"strategy":"random"}`)); err == nil {
		t.Fatal("accepted an unknown format")
	}
}

func TestSavedRandIsGoStream(t *testing.T) {
	// The same values as math/rand's generator, through Int63 and Uint64
	// mixed, and the same continuation after a save and restore at any
	// point, before and after the register is complete.
	for _, seed := range []int64{0, 1, -5, 1 << 40} {
		want := rand.NewSource(seed).(rand.Source64)
		got := newSavedRand(seed)
		for i := 0; i < 3*rngLen+5; i++ {
			if i%3 == 0 {
				if a, b := want.Int63(), got.src.Int63(); a != b {
					t.Fatalf("seed %d, value %d: Int63 %d, want %d", seed, i, b, a)
				}
			} else if a, b := want.Uint64(), got.src.Uint64(); a != b {
				t.Fatalf("seed %d, value %d: Uint64 %d, want %d", seed, i, b, a)
			}
		}
	}
	for _, cut := range []int{0, 1, rngLen - 1, rngLen, rngLen + 1, 2*rngLen + 17, 5000} {
		a := newSavedRand(9)
		for i := 0; i < cut; i++ {
			a.Intn(1000)
		}
		b := newSavedRand(9)
		if err := b.restore(a.state()); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2000; i++ {
			if x, y := a.Int63(), b.Int63(); x != y {
				t.Fatalf("restored at %d: value %d is %d, want %d", cut, i, y, x)
			}
		}
	}
}
