// Package counterrace models request statistics kept in plain struct
// fields and incremented from every handler goroutine: the read-modify-
// write of Hits is a data race, and two concurrent increments can lose one.
package counterrace

// Stats counts requests.
type Stats struct {
	Hits   int
	Errors int
}

// Record counts one request.
func (s *Stats) Record(failed bool) {
	s.Hits++
	if failed {
		s.Errors++
	}
}

// Snapshot returns the counters.
func (s *Stats) Snapshot() (hits, errors int) { return s.Hits, s.Errors }
