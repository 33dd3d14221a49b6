// Package cmdtimeout runs an external command with a timeout: the command
// runs in a goroutine that reports its result on an unbuffered channel, and
// the caller gives up after the timeout. When the command is slower than
// the timeout, Run returns ErrTimeout and the goroutine blocks for ever on
// its report.
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
	done := make(chan error)
	go func() { done <- exec.Command(name, args...).Run() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return ErrTimeout
	}
}
