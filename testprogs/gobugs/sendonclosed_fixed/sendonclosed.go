// Package sendonclosed is the fixed version: Publish sends while holding
// the read lock (without blocking), and Unsubscribe closes under the write
// lock, so no send can follow the close.
package sendonclosed

import "sync"

// Bus delivers messages to subscribers.
type Bus struct {
	mu   sync.RWMutex
	subs map[int]chan string
	next int
}

// NewBus returns a bus without subscribers.
func NewBus() *Bus { return &Bus{subs: make(map[int]chan string)} }

// Subscribe returns a subscription id and its message channel.
func (b *Bus) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	ch := make(chan string, 8)
	b.subs[b.next] = ch
	return b.next, ch
}

// Unsubscribe removes subscription id and closes its channel.
func (b *Bus) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ch, ok := b.subs[id]; ok {
		delete(b.subs, id)
		close(ch)
	}
}

// Publish sends msg to every subscriber; a subscriber whose buffer is full
// misses the message.
func (b *Bus) Publish(msg string) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, ch := range b.subs {
		select {
		case ch <- msg:
		default:
		}
	}
}
