package tests

import (
	"runtime"
	"testing"
)

func TestA(t *testing.T) {
	t.Parallel()
	t.Run("sub", func(t *testing.T) {
		runtime.Gosched()
	})
}

func TestB(*testing.T) {}

func TestMain(m *testing.M) { m.Run() }

func helper(t *testing.T) {}
