// Package cmdtimeout is the fixed version: the result channel has room for
// the result, so the goroutine can always deliver it and exit.
package cmdtimeout

import (
	"errors"
	"os/exec"
	"time"
)

// ErrTimeout is returned when the command does not finish in time.
var ErrTimeout = errors.New("cmdtimeout: command timed out")

// Run runs the command and waits for it at most timeout.
func Run(name string, args []string, timeout time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- exec.Command(name, args...).Run() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return ErrTimeout
	}
}
