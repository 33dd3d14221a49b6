package runtime

import "testing"

func TestRunSubtestsJoinExecution(t *testing.T) {
	check(t, "random", 3, func(t *testing.T) {
		Parallel(t)
		for _, n := range []string{"a", "b"} {
			Run(t, n, func(t *testing.T) {
				Parallel(t)
				c := Chan(make(chan int, 1))
				Send(c, 1)
				Recv(c)
			})
		}
	})
}
