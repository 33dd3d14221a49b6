package cmdtimeout

import (
	"os/exec"
	"testing"
	"time"
)

func TestRunWithTimeout(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	if err := Run("sleep", []string{"0.08"}, 20*time.Millisecond); err != nil && err != ErrTimeout {
		t.Fatal(err)
	}
}
