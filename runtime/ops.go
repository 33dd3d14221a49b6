package runtime

// opKind names the operation at a scheduling point, for traces and reports.
type opKind uint8

const (
	opNone opKind = iota
	opStart
	opGo
	opYield
	opSend
	opRecv
	opClose
	opLen
	opSelect
	opLock
	opUnlock
	opRLock
	opRUnlock
	opWaitGroup
	opWait
	opOnce
	opCondWait
	opSignal
	opAtomic
	opRead
	opWrite
	opSleep
	opTimer
	opUncontrolled
	opExit
	opRWLock
	opRWUnlock
	opBroadcast
	opCancel
	opAtomicLoad
	opNumGoroutine
	opStack
	opRun
)

var opNames = [...]string{
	opAtomicLoad:   "atomic load",
	opNone:         "step",
	opStart:        "start",
	opGo:           "go",
	opYield:        "yield",
	opSend:         "chan send",
	opRecv:         "chan receive",
	opClose:        "chan close",
	opLen:          "chan len",
	opSelect:       "select",
	opLock:         "mutex lock",
	opUnlock:       "mutex unlock",
	opRLock:        "rwmutex rlock",
	opRUnlock:      "rwmutex runlock",
	opWaitGroup:    "waitgroup",
	opWait:         "waitgroup wait",
	opOnce:         "once",
	opCondWait:     "cond wait",
	opSignal:       "cond signal",
	opAtomic:       "atomic",
	opRead:         "read",
	opWrite:        "write",
	opSleep:        "sleep",
	opTimer:        "timer",
	opUncontrolled: "uncontrolled call",
	opRun:          "t.Run",
	opExit:         "exit",
	opRWLock:       "rwmutex lock",
	opRWUnlock:     "rwmutex unlock",
	opBroadcast:    "cond broadcast",
	opCancel:       "context cancel",
	opNumGoroutine: "numgoroutine",
	opStack:        "goroutine stacks",
}

//go:norace
func (k opKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return "op"
}

// mutates reports whether the operation changes state other goroutines can
// observe. A long run of steps none of which mutates is a livelock: the
// goroutines only look (read, poll a select with default, yield) at a
// state nobody changes any more.
//
//go:norace
func (k opKind) mutates() bool {
	switch k {
	case opStart, opGo, opSend, opClose, opUnlock, opRUnlock, opRWUnlock, opWaitGroup,
		opSignal, opBroadcast, opAtomic, opWrite, opTimer, opExit, opCancel, opUncontrolled, opRun:
		return true
	}
	return false
}
