package depuser

import (
	"testing"

	"golang.org/x/sync/errgroup"
)

func TestGroup(t *testing.T) {
	var g errgroup.Group
	results := make([]int, 4)
	for i := range results {
		g.Go(func() error {
			results[i] = i * i
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if results[3] != 9 {
		t.Fatalf("results %v", results)
	}
}
