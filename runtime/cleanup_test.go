package runtime

import "testing"

// A background goroutine that the test stops in t.Cleanup is not leaked:
// cleanups run inside the execution, before the leak check.
func TestCleanupStopsBackgroundGoroutine(t *testing.T) {
	check(t, "random", 5, func(t *testing.T) {
		stop := Chan(make(chan struct{}))
		stopped := Chan(make(chan struct{}))
		Go(func() {
			Recv(stop)
			Close(stopped)
		})
		Cleanup(t, func() {
			Close(stop)
			Recv(stopped) // waits for a controlled goroutine: no hang
		})
	})
}

// Cleanups run last registered first, once per schedule, and those
// registered outside an execution go to testing.
func TestCleanupOrder(t *testing.T) {
	var got []int
	schedules := 0
	check(t, "random", 3, func(t *testing.T) {
		schedules++
		Cleanup(t, func() { got = append(got, 1) })
		Cleanup(t, func() { got = append(got, 2) })
	})
	if len(got) != 2*schedules || schedules == 0 {
		t.Fatalf("ran %v for %d schedules", got, schedules)
	}
	for i := 0; i < len(got); i += 2 {
		if got[i] != 2 || got[i+1] != 1 {
			t.Fatalf("order %v, want 2 before 1 in each schedule", got)
		}
	}
	outside := false
	t.Run("outside", func(t *testing.T) {
		Cleanup(t, func() { outside = true })
	})
	if !outside {
		t.Error("a cleanup registered outside an execution did not run")
	}
}
