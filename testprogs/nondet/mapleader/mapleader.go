// Package mapleader elects a leader among a cluster's members: every
// member takes the first member of a range over the membership map as the
// leader, and the one that finds itself elected announces it by closing
// the cluster's elected channel. Go's map order differs from range to
// range, so two members may both find themselves first, and the second
// close panics.
package mapleader

import "sync"

// Cluster is a set of members by id.
type Cluster struct {
	mu      sync.Mutex
	members map[int]bool
	elected chan struct{}
}

// New returns a cluster of the given members.
func New(ids ...int) *Cluster {
	c := &Cluster{members: map[int]bool{}, elected: make(chan struct{})}
	for _, id := range ids {
		c.members[id] = true
	}
	return c
}

// Elect runs member id's election.
func (c *Cluster) Elect(id int) {
	c.mu.Lock()
	leader := -1
	for m := range c.members { // BUG: "the first member" is not the same for everyone
		leader = m
		break
	}
	c.mu.Unlock()
	if leader == id {
		close(c.elected)
	}
}
