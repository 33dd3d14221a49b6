// Package hedgeleak is the fixed version: the answers channel has room for
// both answers, so the loser can always deliver its answer and exit.
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
	ch := make(chan string, 2)
	go func() { ch <- c.Primary(key) }()
	go func() {
		time.Sleep(c.HedgeDelay)
		ch <- c.Backup(key)
	}()
	return <-ch
}
