// Package svc is a small job server: a pool of workers computes jobs,
// a cache keeps their results, a janitor evicts the cache on ticks, a
// log goroutine collects messages, and stats count it all.
package svc

import (
	"errors"
	"fmt"
	"sync"
)

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("svc: server closed")

// Job asks for the square of N, cached under Key.
type Job struct {
	ID  int
	Key string
	N   int
}

// Result is the outcome of a job.
type Result struct {
	ID    int
	Value int
}

// Server runs jobs.
type Server struct {
	jobs    chan Job
	results chan Result
	tick    chan struct{}
	quit    chan struct{}
	cache   *Cache
	stats   *Stats
	log     *Log
	wg      sync.WaitGroup
	jan     sync.WaitGroup
	mu      sync.Mutex
	closed  bool
}

// New starts a server with the given number of workers.
func New(workers int) *Server {
	s := &Server{
		jobs:    make(chan Job),
		results: make(chan Result, workers),
		tick:    make(chan struct{}),
		quit:    make(chan struct{}),
		cache:   NewCache(),
		stats:   &Stats{},
	}
	s.log = NewLog(s.stats.lineLogged)
	for i := 0; i < workers; i++ {
		s.wg.Add(1)
		go s.worker(i)
	}
	s.jan.Add(1)
	go s.janitor()
	return s
}

// Results delivers the results; it is closed by Close.
func (s *Server) Results() <-chan Result { return s.results }

func (s *Server) worker(id int) {
	defer s.wg.Done()
	for j := range s.jobs {
		v := s.compute(j)
		s.log.Printf("worker %d: job %d = %d", id, j.ID, v)
		s.results <- Result{ID: j.ID, Value: v}
	}
}

func (s *Server) compute(j Job) int {
	if v, ok := s.cache.Get(j.Key); ok {
		s.stats.jobDone()
		return v
	}
	v := square(j.N)
	s.cache.Put(j.Key, v)
	s.stats.jobDone()
	return v
}

func square(n int) int {
	return n * n
}

func (s *Server) janitor() {
	defer s.jan.Done()
	for {
		select {
		case <-s.tick:
			n := s.cache.evict()
			s.stats.addEvicted(n)
		case <-s.quit:
			return
		}
	}
}

// Tick asks the janitor to evict the cache.
func (s *Server) Tick() {
	select {
	case s.tick <- struct{}{}:
	case <-s.quit:
	}
}

// Submit queues a job.
func (s *Server) Submit(j Job) error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return ErrClosed
	}
	s.jobs <- j
	return nil
}

// Report describes the server's state.
func (s *Server) Report() string {
	ch := make(chan string, 1)
	go func() {
		s.stats.mu.Lock()
		defer s.stats.mu.Unlock()
		ch <- fmt.Sprintf("done=%d evicted=%d cached=%d", s.stats.done, s.stats.evicted, s.cache.Len())
	}()
	return <-ch
}

// Close stops the server once the submitted jobs are done. The caller
// must have stopped submitting.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	close(s.jobs)
	s.wg.Wait()
	close(s.quit)
	s.jan.Wait()
	s.log.Close()
	close(s.results)
}
