package strategies

import "testing"

// BenchmarkNext measures the cost of one decision, executions of 100
// points among 4 enabled goroutines (plus one select in 10), including
// NewExecution and, for the systematic searches, the replay of the prefix.
func BenchmarkNext(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			s, err := New(name, Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			g := &Point{Kind: Goroutine, Choices: []int{0, 1, 2, 3}}
			c := &Point{Kind: Case, Choices: []int{0, 1, 2}}
			s.NewExecution()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%100 == 99 {
					if !s.NewExecution() {
						b.Fatal("exhausted")
					}
				}
				p := g
				if i%10 == 9 {
					p = c
				}
				k := s.Next(p)
				if p == g {
					g.Current = g.Choices[k]
				}
			}
		})
	}
}

// BenchmarkFirstBug reports, per strategy and model program, the number of
// executions to the first bug ("sched/bug"; the mean over b.N seeds for the
// random strategies) and, for the systematic ones, the executions of the
// whole search within its bound ("sched/all").
func BenchmarkFirstBug(b *testing.B) {
	progs := []struct {
		name string
		mk   func() *prog
	}{
		{"fig1", fig1}, {"fig2", fig2},
		{"reorder3", func() *prog { return reorder(3) }},
		{"reorder5", func() *prog { return reorder(5) }},
	}
	for _, name := range Names() {
		for _, pr := range progs {
			b.Run(name+"/"+pr.name, func(b *testing.B) {
				total, all := 0, 0
				for i := 0; i < b.N; i++ {
					s, _ := New(name, Options{Seed: int64(i)})
					n := 0
					found := false
					for n < 100000 && s.NewExecution() {
						n++
						if pr.mk().run(s, 10000).failed && !found {
							found = true
							total += n
							if _, ok := s.(Status); !ok || name == "portfolio" || name == "pct" {
								break
							}
						}
					}
					if !found {
						total += 100000
					}
					all += n
				}
				b.ReportMetric(float64(total)/float64(b.N), "sched/bug")
				b.ReportMetric(float64(all)/float64(b.N), "sched/all")
			})
		}
	}
}
