// Package abbacallback is the fixed version: a node releases its own lock
// before notifying the manager, so no goroutine holds a node lock while
// waiting for the manager's.
package abbacallback

import "sync"

// Manager tracks nodes and counts their state changes.
type Manager struct {
	mu      sync.Mutex
	nodes   []*Node
	changes int
}

// Node is a member of the cluster.
type Node struct {
	mu      sync.Mutex
	name    string
	healthy bool
	mgr     *Manager
}

// AddNode registers a healthy node named name.
func (m *Manager) AddNode(name string) *Node {
	n := &Node{name: name, healthy: true, mgr: m}
	m.mu.Lock()
	m.nodes = append(m.nodes, n)
	m.mu.Unlock()
	return n
}

// Healthy returns the number of healthy nodes.
func (m *Manager) Healthy() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	count := 0
	for _, n := range m.nodes {
		if n.IsHealthy() {
			count++
		}
	}
	return count
}

// Changes returns the number of state changes seen.
func (m *Manager) Changes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changes
}

func (m *Manager) onChange() {
	m.mu.Lock()
	m.changes++
	m.mu.Unlock()
}

// IsHealthy reports the node's health.
func (n *Node) IsHealthy() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.healthy
}

// SetHealthy records the node's health and notifies the manager.
func (n *Node) SetHealthy(h bool) {
	n.mu.Lock()
	changed := n.healthy != h
	n.healthy = h
	n.mu.Unlock()
	if changed {
		n.mgr.onChange()
	}
}
