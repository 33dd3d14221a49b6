package runtime

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// The CPU time of the thread running a goroutine, for the charge of a
// token holder's computing (charge.go): on a loaded machine the holder's
// thread waits for a CPU while the watchdog's runs, and wall time would
// charge that wait as work, making the program slower than Go can be. The
// thread's CPU clock counts only what it ran.
//
// The thread is the goroutine's m (runtime2.go: g.m), whose procid is
// the thread's id on Linux; the offsets are found once, against a
// goroutine locked to its thread, and the layout of this Go's runtime2.go
// is the only one tried: if it does not match, threadCPUOK stays false and
// the watchdog charges wall time, as before.

var (
	threadCPUOK  bool
	mOffset      int // of g.m
	procidOffset int // of m.procid
)

// The layout of runtime2.go since Go 1.23: g.m after stack (2 words),
// stackguard0, stackguard1, _panic and _defer; m.procid after g0, morebuf
// (a gobuf of 6 words) and divmod with its padding.
const (
	mOffsetGo123      = 6 * 8
	procidOffsetGo123 = 8 + 6*8 + 8
)

// calibrateThreadCPU checks the offsets on two threads. The calling
// goroutine is the watchdog's, locked to its thread (napInit).
//
//go:norace
//go:nocheckptr
func calibrateThreadCPU() {
	if !haveGetg || unsafe.Sizeof(uintptr(0)) != 8 {
		return
	}
	check := func() bool {
		tid := uint64(syscall.Gettid())
		m := *(*unsafe.Pointer)(unsafe.Add(getg(), mOffsetGo123))
		if m == nil || *(*uint64)(unsafe.Add(m, procidOffsetGo123)) != tid {
			return false
		}
		_, ok := threadCPU(tid)
		return ok
	}
	if !check() {
		return
	}
	other := make(chan bool)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		other <- check()
	}()
	if !<-other {
		return
	}
	mOffset, procidOffset = mOffsetGo123, procidOffsetGo123
	threadCPUOK = true
}

// holderThread is the id of the thread running the goroutine whose g is
// gp, 0 when it runs on none or the layout is unknown.
//
//go:norace
//go:nocheckptr
func holderThread(gp unsafe.Pointer) uint64 {
	if !threadCPUOK || gp == nil {
		return 0
	}
	m := *(*unsafe.Pointer)(unsafe.Add(gp, mOffset))
	if m == nil {
		return 0
	}
	return *(*uint64)(unsafe.Add(m, procidOffset))
}

// threadCPU is the CPU time thread tid has run, from its CPU clock
// (clock_gettime of MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)).
//
//go:norace
func threadCPU(tid uint64) (time.Duration, bool) {
	const cpuclockSched, cpuclockPerthread = 2, 4
	clk := int32(^uint32(tid)<<3) | cpuclockSched | cpuclockPerthread
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, uintptr(clk), uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
