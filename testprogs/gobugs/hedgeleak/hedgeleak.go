// Package hedgeleak models hedged requests: Get asks the primary replica
// and, after a hedging delay, a backup replica, and returns the first
// answer. The hedge goroutine sleeps for the delay and then sends its
// answer on the same unbuffered channel: when the primary has answered
// first, nobody reads it, and the hedge goroutine blocks for ever, a minute
// after the test has returned.
package hedgeleak

import "time"

// Client asks replicas for values.
type Client struct {
	HedgeDelay time.Duration
	Primary    func(key string) string
	Backup     func(key string) string
}

// Get returns the first answer of the primary or of the hedged backup.
func (c *Client) Get(key string) string {
	ch := make(chan string)
	go func() { ch <- c.Primary(key) }()
	go func() {
		time.Sleep(c.HedgeDelay)
		ch <- c.Backup(key)
	}()
	return <-ch
}
