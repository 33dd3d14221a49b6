// Package configrace models a server whose configuration is reloaded in
// place: Reload updates the fields under a mutex, but Addr reads them
// without it. Besides the data race on the struct fields, a read in the
// middle of a reload sees the new host with the old port.
package configrace

import (
	"fmt"
	"sync"
)

// Config is the server's listening address.
type Config struct {
	Host string
	Port int
}

// Server serves on its configured address.
type Server struct {
	mu  sync.Mutex
	cfg Config
}

// NewServer returns a server configured with cfg.
func NewServer(cfg Config) *Server { return &Server{cfg: cfg} }

// Reload replaces the configuration.
func (s *Server) Reload(cfg Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Host = cfg.Host
	s.cfg.Port = cfg.Port
}

// Addr returns the current address; reads are frequent, so it skips the
// lock.
func (s *Server) Addr() string {
	return fmt.Sprintf("%s:%d", s.cfg.Host, s.cfg.Port)
}
