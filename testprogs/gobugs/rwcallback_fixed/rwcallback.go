// Package rwcallback is the fixed version: Range copies the rows under the
// read lock and calls the callback without holding it.
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

type row struct {
	id   int
	name string
}

// Range calls fn for every row present when Range started.
func (t *Table) Range(fn func(id int, name string)) {
	t.mu.RLock()
	snapshot := make([]row, 0, len(t.rows))
	for id, name := range t.rows {
		snapshot = append(snapshot, row{id, name})
	}
	t.mu.RUnlock()
	for _, r := range snapshot {
		fn(r.id, r.name)
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
