package registry

import (
	"sync"
	"testing"
)

var (
	once    sync.Once
	echo    *Group
	feed    = make(chan string)
	counter *Group
)

func setup() {
	echo = NewGroup("echo", func(key string) string { return "ECHO:" + <-feed })
	counter = NewGroup("counter", func(key string) string { return key })
}

// TestColdGet needs a cold cache: the getter reads what the test sends.
// Run twice in one process, the value is cached and the send blocks.
func TestColdGet(t *testing.T) {
	once.Do(setup)
	res := make(chan string)
	go func() { res <- echo.Get("k") }()
	feed <- "foo"
	if v := <-res; v != "ECHO:foo" {
		t.Fatalf("got %q", v)
	}
}

// TestRegister registers a group of its own: once per process.
func TestRegister(t *testing.T) {
	g := NewGroup("mine", func(key string) string { return key + key })
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := g.Get("a"); v != "aa" {
				t.Errorf("got %q", v)
			}
		}()
	}
	wg.Wait()
}

// TestWarm is re-runnable: the Once's groups exist after the first run.
func TestWarm(t *testing.T) {
	once.Do(setup)
	done := make(chan bool)
	go func() { done <- counter.Get("x") == "x" }()
	if !<-done {
		t.Fatal("counter")
	}
}
