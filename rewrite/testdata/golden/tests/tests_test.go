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

func TestCleanup(t *testing.T) {
	t.Cleanup(func() {})
	t.Run("sub", func(t *testing.T) { t.Cleanup(func() {}) })
}

func BenchmarkCleanup(b *testing.B) { b.Cleanup(func() {}) }

func TestMain(m *testing.M) { m.Run() }

func helper(t *testing.T) {}
