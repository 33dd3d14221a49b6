// Package rwcallback models a grpc-balancer-style table that calls a
// user callback for every row while holding the read lock. A callback that
// calls back into the table (here Len) takes the read lock recursively, and
// a writer queued in between deadlocks all three.
package rwcallback

import "sync"

// Table is a concurrent map from ids to names.
type Table struct {
	mu   sync.RWMutex
	rows map[int]string
}

// NewTable returns a table holding rows.
func NewTable(rows map[int]string) *Table {
	m := make(map[int]string, len(rows))
	for k, v := range rows {
		m[k] = v
	}
	return &Table{rows: m}
}

// Range calls fn for every row.
func (t *Table) Range(fn func(id int, name string)) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for id, name := range t.rows {
		fn(id, name)
	}
}

// Len returns the number of rows.
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.rows)
}

// Put adds or replaces a row.
func (t *Table) Put(id int, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rows[id] = name
}
