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
