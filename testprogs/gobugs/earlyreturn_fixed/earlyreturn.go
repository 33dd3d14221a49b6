// Package earlyreturn is the fixed version: the consumer tells the producer
// to stop and waits for it before returning.
package earlyreturn

import "fmt"

// Container is one entry of the listing.
type Container struct {
	ID     string
	Broken bool
}

// stream returns the entries and a function that waits for the producer.
func stream(done <-chan struct{}, cs []Container) (<-chan Container, func()) {
	out := make(chan Container)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer close(out)
		for _, c := range cs {
			select {
			case out <- c:
			case <-done:
				return
			}
		}
	}()
	return out, func() { <-finished }
}

// HealthyIDs returns the IDs of cs in order, or an error naming the first
// broken container.
func HealthyIDs(cs []Container) ([]string, error) {
	done := make(chan struct{})
	out, wait := stream(done, cs)
	defer wait()
	defer close(done)
	var ids []string
	for c := range out {
		if c.Broken {
			return ids, fmt.Errorf("container %s is broken", c.ID)
		}
		ids = append(ids, c.ID)
	}
	return ids, nil
}
