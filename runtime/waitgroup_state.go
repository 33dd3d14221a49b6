package runtime

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// wgStateOff is the offset of the real WaitGroup's state word (counter in
// the high 32 bits), found by reflection so that a change of sync's layout
// disables the check instead of breaking it; -1 if not found.
var wgStateOff = func() int {
	f, ok := reflect.TypeOf(sync.WaitGroup{}).FieldByName("state")
	if !ok || f.Type.Size() != 8 || f.Offset%8 != 0 {
		return -1
	}
	return int(f.Offset)
}()

// wgCounter reads the real WaitGroup's counter (a large number if the
// layout is unknown, so that nothing is dropped).
//
//go:norace
func wgCounter(wg *sync.WaitGroup) int {
	if wgStateOff < 0 {
		return 1 << 30
	}
	s := atomic.LoadUint64((*uint64)(fieldPtr(unsafe.Pointer(wg), uintptr(wgStateOff))))
	return int(int32(s >> 32))
}
