package patterns

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A context's cancel closes its Done, and its children's, inside the
// context package: a receive that sees Done closed is ordered after the
// goroutine that cancelled, and only after it. Each cancel runs in a
// goroutine of its own, so that the first goroutine's write is ordered
// before the read by nothing.

func TestCancelOrdersOnlyTheCanceller(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	race(func() {
		x = 1
	}, func() {
		go cancel()
		<-ctx.Done()
		_ = x
	})
}

func TestCancelCauseOrdersOnlyTheCanceller(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	x := 0
	race(func() {
		x = 1
	}, func() {
		go cancel(errors.New("stop"))
		select {
		case <-ctx.Done():
		}
		_ = x
	})
}

func TestCancelParentOrdersOnlyTheCanceller(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	child, cancelChild := context.WithCancel(parent)
	defer cancelChild()
	x := 0
	race(func() {
		x = 1
	}, func() {
		go cancel()
		<-child.Done()
		_ = x
	})
}

func TestCancelTimeoutOrdersOnlyTheCanceller(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	x := 0
	race(func() {
		x = 1
	}, func() {
		go cancel()
		<-ctx.Done()
		_ = x
	})
}

// The fixed twins: the goroutine that writes is the one that cancels,
// before or above the context the reader waits on.

func TestCancelAfterWriteNoRace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	go func() {
		x = 1
		cancel()
	}()
	<-ctx.Done()
	_ = x
}

func TestCancelParentAfterWriteNoRace(t *testing.T) {
	parent, cancel := context.WithCancelCause(context.Background())
	child, cancelChild := context.WithCancel(parent)
	defer cancelChild()
	grandchild, cancelGrandchild := context.WithCancel(child)
	defer cancelGrandchild()
	x := 0
	go func() {
		x = 1
		cancel(errors.New("stop"))
	}()
	<-grandchild.Done()
	_ = x
}

func TestCancelAboveTimeoutAfterWriteNoRace(t *testing.T) {
	parent, cancel := context.WithCancelCause(context.Background())
	child, cancelChild := context.WithTimeout(parent, time.Hour)
	defer cancelChild()
	grandchild, cancelGrandchild := context.WithCancel(child)
	defer cancelGrandchild()
	x := 0
	go func() {
		x = 1
		cancel(errors.New("stop"))
	}()
	<-grandchild.Done()
	_ = x
}
