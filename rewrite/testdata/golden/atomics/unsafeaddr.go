package atomics

import (
	"sync/atomic"
	"unsafe"
)

type bucket struct{ entries [4]unsafe.Pointer }

// loadEntry loads a slot through an address computed with unsafe.Add, as
// xsync's Map does to skip the bounds check: the address has no effect of
// its own, so the load's scheduling point names it and synchronizes with
// the store to the same slot.
func loadEntry(b *bucket, idx int) unsafe.Pointer {
	return atomic.LoadPointer((*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&b.entries[0]),
		uintptr(idx)*unsafe.Sizeof(b.entries[0]))))
}

func storeEntry(b *bucket, idx int, p unsafe.Pointer) {
	atomic.StorePointer(&b.entries[idx], p)
}
