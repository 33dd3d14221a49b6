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
)

var opNames = [...]string{
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
	opExit:         "exit",
}

func (k opKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return "op"
}
