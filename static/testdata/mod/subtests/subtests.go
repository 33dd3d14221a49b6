// Package subtests reaches its failure only through t.Run's callback.
package subtests

type counter struct{ n int }

func (c *counter) inc() { c.n++ }
