// Package doubleclose models a server whose Stop may be called from
// several goroutines (signal handler, failing listener, test cleanup). It
// guards close(quit) with an unsynchronised flag: two concurrent Stops can
// both see it unset and close the channel twice.
package doubleclose

// Server runs until stopped.
type Server struct {
	stopped bool
	quit    chan struct{}
}

// NewServer returns a running server.
func NewServer() *Server { return &Server{quit: make(chan struct{})} }

// Stop stops the server; calling it again is meant to do nothing.
func (s *Server) Stop() {
	if !s.stopped {
		s.stopped = true
		close(s.quit)
	}
}

// Done is closed when the server stops.
func (s *Server) Done() <-chan struct{} { return s.quit }
