// Package sendonclosed models a pub/sub bus: Publish snapshots the
// subscriber channels under the read lock and sends after releasing it,
// while Unsubscribe closes the subscriber's channel. A publish that took
// its snapshot before the unsubscribe sends on a closed channel.
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
	ch, ok := b.subs[id]
	delete(b.subs, id)
	b.mu.Unlock()
	if ok {
		close(ch)
	}
}

// Publish sends msg to every subscriber.
func (b *Bus) Publish(msg string) {
	b.mu.RLock()
	chans := make([]chan string, 0, len(b.subs))
	for _, ch := range b.subs {
		chans = append(chans, ch)
	}
	b.mu.RUnlock()
	for _, ch := range chans {
		ch <- msg
	}
}
