package testbin

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// helperEnv makes this test binary act as an instrumented test binary:
// TestHelperBinary reads the configuration, writes events and exits as
// the value says.
const helperEnv = "GOSCT_TESTBIN_HELPER"

func TestHelperBinary(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("run by the tests of Cmd")
	}
	c, err := wire.Load()
	if err != nil || c == nil {
		fmt.Println("no config:", err)
		os.Exit(3)
	}
	switch mode {
	case "bug":
		wire.Append(c.Results, &wire.Event{Event: "bug", Test: "TestX", Kind: "deadlock", Schedule: 2})
		wire.Append(c.Results, &wire.Event{Event: "test", Test: "TestX", Schedules: 2, Bugs: 1})
		fmt.Println("output of the binary; GORACE=" + os.Getenv("GORACE"))
		os.Exit(1)
	case "interrupt":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		fmt.Println("waiting")
		<-ch
		wire.Append(c.Results, &wire.Event{Event: "test", Test: "TestX", Schedules: 7, Message: wire.StopInterrupted})
		os.Exit(0)
	}
}

func helper(t *testing.T, mode string) *Cmd {
	t.Setenv(helperEnv, mode)
	return &Cmd{Bin: os.Args[0], Args: []string{"-test.run=^TestHelperBinary$"}, TempDir: t.TempDir()}
}

func TestCmdRun(t *testing.T) {
	c := helper(t, "bug")
	var out bytes.Buffer
	var seen []string
	c.Output = &out
	c.OnEvent = func(e wire.Event) { seen = append(seen, e.Event) }
	res, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || len(res.Events) != 2 || res.Events[0].Kind != "deadlock" || res.Truncated || res.Bad != 0 {
		t.Errorf("result %+v", res)
	}
	if strings.Join(seen, ",") != "bug,test" {
		t.Errorf("OnEvent saw %v", seen)
	}
	if !strings.Contains(out.String(), "output of the binary; GORACE=suppress_equal_stacks=0") {
		t.Errorf("output %q", out.String())
	}
	if left, _ := os.ReadDir(c.TempDir); len(left) != 0 {
		t.Errorf("the results file was left behind: %v", left)
	}
}

// TestCmdInterrupted: a canceled run interrupts the binary, which reports
// and exits by itself: its exit status and events are the result.
func TestCmdInterrupted(t *testing.T) {
	c := helper(t, "interrupt")
	ctx, cancel := context.WithCancel(context.Background())
	c.Output = writerFunc(func(b []byte) (int, error) {
		if bytes.Contains(b, []byte("waiting")) {
			cancel()
		}
		return len(b), nil
	})
	res, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || len(res.Events) != 1 || res.Events[0].Message != wire.StopInterrupted {
		t.Errorf("result %+v: want the binary's own report and exit status, not a kill", res)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
