// Package cs_bluetooth_driver_bad is a Go port of SCTBench's
// CS.bluetooth_driver_bad, the classic model of a Windows Bluetooth driver
// (Qadeer and Wu's KISS example): the "add" path checks the stopping flag
// outside the lock, so the stopper can stop the driver between that check
// and the increment of the pending-I/O count, and work then runs on a
// stopped driver.
package cs_bluetooth_driver_bad

import (
	"sync"
	"testing"
)

// device is the driver's extension record.
type device struct {
	pendingIo     int
	stoppingFlag  bool
	stoppingEvent bool
}

// driver is the shared state; atomic stands for ESBMC's atomic sections.
type driver struct {
	atomic  sync.Mutex
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
}

// increment registers one more pending I/O unless the driver is stopping.
func (d *driver) increment() int {
	if d.e.stoppingFlag { // checked outside the lock: the bug
		return -1
	}
	d.atomic.Lock()
	d.e.pendingIo++
	d.atomic.Unlock()
	return 0
}

// decrement drops a pending I/O and raises the stopping event at zero.
func (d *driver) decrement() {
	d.atomic.Lock()
	d.e.pendingIo--
	pending := d.e.pendingIo
	d.atomic.Unlock()
	if pending == 0 {
		d.e.stoppingEvent = true
	}
}

// add is an I/O request: it must never do its work on a stopped driver.
func (d *driver) add(t testing.TB) {
	if d.increment() == 0 {
		if d.stopped {
			t.Errorf("I/O performed on a stopped driver")
		}
	}
	d.decrement()
}

func (d *driver) stopper() {
	d.e.stoppingFlag = true
	d.decrement()
	if d.e.stoppingEvent {
		d.stopped = true
	}
}
