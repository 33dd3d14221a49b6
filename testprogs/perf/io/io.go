// Package io holds correct tests whose goroutines block in uncontrolled
// code: the network stack, the file system, a subprocess, net.Pipe.
package io

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
)

// Counter is an http.Handler counting its requests under a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	fmt.Fprintf(w, "%d", n)
}

// Count says how many requests the handler served.
func (c *Counter) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Echo serves conn: every line it reads is written back upper-cased in
// a bracket, until the connection is closed.
func Echo(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if _, err := fmt.Fprintf(conn, "[%s]\n", line[:len(line)-1]); err != nil {
			return
		}
	}
}
