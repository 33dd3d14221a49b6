// Package configrace is the fixed version: Addr reads the configuration
// under the same mutex as Reload.
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

// Addr returns the current address.
func (s *Server) Addr() string {
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	return fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
}
