package svc

import (
	"fmt"
	"sync"
)

// Log collects the server's messages in a goroutine of its own.
type Log struct {
	ch     chan string
	done   chan struct{}
	mu     sync.Mutex
	lines  []string
	onLine func()
}

// NewLog starts a log; onLine, if not nil, is called for every line
// while the log holds its lock.
func NewLog(onLine func()) *Log {
	l := &Log{ch: make(chan string, 4), done: make(chan struct{}), onLine: onLine}
	go l.run()
	return l
}

func (l *Log) run() {
	for s := range l.ch {
		l.mu.Lock()
		l.lines = append(l.lines, s)
		if l.onLine != nil {
			l.onLine()
		}
		l.mu.Unlock()
	}
	close(l.done)
}

// Printf logs a line.
func (l *Log) Printf(format string, args ...any) {
	l.ch <- fmt.Sprintf(format, args...)
}

// Count is the number of lines logged so far.
func (l *Log) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

// Close stops the log once every line sent is logged.
func (l *Log) Close() {
	close(l.ch)
	<-l.done
}
