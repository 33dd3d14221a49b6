package strategies

import (
	"bytes"
	"testing"
)

// TestSkipExecution: a strategy saved between NewExecution and the
// execution, loaded after that execution died and told so, does not take
// the dead schedule again, and goes on (a search is not taken as
// exhausted).
func TestSkipExecution(t *testing.T) {
	makers := map[string]func() Strategy{
		"random":    func() Strategy { return NewRandom(Options{Seed: 2}) },
		"pct":       func() Strategy { return NewPCT(Options{Seed: 2}) },
		"dfsrb":     func() Strategy { return NewDFSRB(Options{Seed: 2}) },
		"portfolio": func() Strategy { return NewPortfolio(Options{Seed: 2}) },
		"dfs":       func() Strategy { return NewDFS(Options{}) },
	}
	for name, mk := range makers {
		for _, k := range []int{0, 3, 10} {
			if k == 0 && (name == "dfs" || name == "dfsrb") {
				// A search whose first execution died knows nothing
				// of the tree: it can only end, or start again with
				// the same first schedule.
				continue
			}
			s := mk()
			explore(t, writers(5), s, k)
			if !s.NewExecution() {
				t.Fatalf("%s ended after %d executions", name, k)
			}
			var buf bytes.Buffer
			if err := s.(Saver).Save(&buf); err != nil {
				t.Fatal(err)
			}
			dead := writers(5).run(s, 1000).schedule // lost with its process

			r := mk()
			if err := r.(Saver).Load(bytes.NewReader(buf.Bytes())); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if sk, ok := r.(Skipper); ok {
				sk.SkipExecution()
			}
			if !r.NewExecution() {
				t.Fatalf("%s after %d executions: ended after a dead execution", name, k)
			}
			next := writers(5).run(r, 1000).schedule
			if next == dead {
				t.Errorf("%s after %d executions: took the dead schedule %s again", name, k, dead)
			}
		}
	}
}
