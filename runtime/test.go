package runtime

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

var (
	configOnce sync.Once
	config     *wire.Config
	configErr  error
)

//go:norace
func loadConfig() *wire.Config {
	configOnce.Do(func() {
		config, configErr = wire.Load()
		if configErr != nil {
			fmt.Fprintf(os.Stderr, "gosct: bad %s: %v\n", wire.EnvConfig, configErr)
			os.Exit(2)
		}
		// Processes the tests start (a test binary re-running itself to
		// check a crash, say) must run as they would under go test.
		os.Unsetenv(wire.EnvConfig)
	})
	return config
}

// Test runs a test function. The rewriter wraps the body of every
// func TestXxx(t *testing.T) in it. Without GOSCT_CONFIG it just runs body;
// with it, it runs body under many schedules, each in a subtest named
// schedule_N, and reports every bug it finds.
//
//go:norace
func Test(t *testing.T, body func(*testing.T)) {
	noteTestBody(body)
	c := loadConfig()
	if c == nil || active.Load() != nil {
		body(t)
		return
	}
	t.Helper()
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatalf("gosct: %v", err)
	}
	x.explore(body)
}

// userTestName is a test's name as the user wrote it: without the
// schedule's subtest gosct runs each execution in (TestX/schedule_3/a is
// TestX/a).
//
//go:norace
func userTestName(name string) string {
	parts := strings.Split(name, "/")
	if len(parts) > 1 && strings.HasPrefix(parts[1], "schedule_") {
		parts = append(parts[:1], parts[2:]...)
	}
	return strings.Join(parts, "/")
}
