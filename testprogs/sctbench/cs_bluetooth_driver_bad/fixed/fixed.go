// Package fixed is CS.bluetooth_driver_bad (see the parent directory) with
// the bug fixed: the add path checks the stopping flag and registers its
// pending I/O in one critical section, and every flag of the device is
// accessed under the driver's lock.
package fixed

import (
	"sync"
	"testing"
)

type device struct {
	pendingIo     int
	stoppingFlag  bool
	stoppingEvent bool
}

type driver struct {
	mu      sync.Mutex // guards e and stopped
	e       device
	stopped bool
}

// Run starts the stopper and runs the add routine on main, then joins.
func Run(t testing.TB) {
	d := &driver{e: device{pendingIo: 1}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.stopper()
	}()
	d.add(t)
	<-done
	if !d.stopped {
		t.Errorf("driver not stopped once all I/O is done")
	}
}

func (d *driver) increment() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.e.stoppingFlag {
		return -1
	}
	d.e.pendingIo++
	return 0
}

// decrement drops a pending I/O; the one that reaches zero stops the driver.
func (d *driver) decrement() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.e.pendingIo--
	if d.e.pendingIo == 0 {
		d.e.stoppingEvent = true
		d.stopped = true
	}
}

func (d *driver) add(t testing.TB) {
	if d.increment() != 0 {
		return
	}
	d.mu.Lock()
	if d.stopped {
		t.Errorf("I/O performed on a stopped driver")
	}
	d.mu.Unlock()
	d.decrement()
}

func (d *driver) stopper() {
	d.mu.Lock()
	d.e.stoppingFlag = true
	d.mu.Unlock()
	d.decrement()
}
