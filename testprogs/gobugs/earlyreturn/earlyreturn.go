// Package earlyreturn models a docker-style listing API that streams
// results on a channel: the consumer stops reading at the first broken
// entry, and the producer goroutine stays blocked on its next send.
package earlyreturn

import "fmt"

// Container is one entry of the listing.
type Container struct {
	ID     string
	Broken bool
}

func stream(cs []Container) <-chan Container {
	out := make(chan Container)
	go func() {
		for _, c := range cs {
			out <- c
		}
		close(out)
	}()
	return out
}

// HealthyIDs returns the IDs of cs in order, or an error naming the first
// broken container.
func HealthyIDs(cs []Container) ([]string, error) {
	var ids []string
	for c := range stream(cs) {
		if c.Broken {
			return ids, fmt.Errorf("container %s is broken", c.ID)
		}
		ids = append(ids, c.ID)
	}
	return ids, nil
}
