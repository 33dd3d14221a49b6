// Package fixed is CB.stringbuffer-jdk1.4 (see the parent directory) with
// the bug fixed as later JDKs did: Append holds the argument's lock across
// reading its length and copying its characters.
package fixed

import (
	"fmt"
	"sync"
	"testing"
)

// StringBuffer is a synchronized, growable character buffer: every method
// holds the receiver's lock for its whole body.
type StringBuffer struct {
	mu    sync.Mutex
	value []byte
	count int
}

// New returns an empty buffer with the given capacity.
func New(capacity int) *StringBuffer {
	return &StringBuffer{value: make([]byte, capacity)}
}

// NewString returns a buffer holding s, with 16 characters to spare as in
// Java.
func NewString(s string) *StringBuffer {
	sb := New(len(s) + 16)
	sb.AppendString(s)
	return sb
}

// Length returns the number of characters in the buffer.
func (sb *StringBuffer) Length() int {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return sb.count
}

// GetChars copies characters [begin, end) into dst at dstBegin. Like Java's
// it panics when the range is not within the buffer.
func (sb *StringBuffer) GetChars(begin, end int, dst []byte, dstBegin int) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if begin < 0 || end > sb.count || begin > end {
		panic(fmt.Sprintf("StringBuffer.GetChars: range [%d,%d) out of bounds for length %d", begin, end, sb.count))
	}
	copy(dst[dstBegin:], sb.value[begin:end])
}

// Erase removes characters [start, end), clipping end to the length.
func (sb *StringBuffer) Erase(start, end int) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if end > sb.count {
		end = sb.count
	}
	if start < 0 || start > end {
		panic(fmt.Sprintf("StringBuffer.Erase: bad range [%d,%d)", start, end))
	}
	n := copy(sb.value[start:], sb.value[end:sb.count])
	sb.count = start + n
}

// AppendString appends s.
func (sb *StringBuffer) AppendString(s string) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	newCount := sb.count + len(s)
	if newCount > len(sb.value) {
		sb.expandCapacity(newCount)
	}
	copy(sb.value[sb.count:], s)
	sb.count = newCount
}

// Append appends the contents of other, reading its length and characters
// in one critical section of other. Locks are taken receiver first; sb and
// other must differ.
func (sb *StringBuffer) Append(other *StringBuffer) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	other.mu.Lock()
	defer other.mu.Unlock()
	n := other.count
	newCount := sb.count + n
	if newCount > len(sb.value) {
		sb.expandCapacity(newCount)
	}
	copy(sb.value[sb.count:], other.value[:n])
	sb.count = newCount
}

// expandCapacity grows the buffer as Java does; the caller holds the lock.
func (sb *StringBuffer) expandCapacity(minimum int) {
	c := (len(sb.value) + 1) * 2
	if c < minimum {
		c = minimum
	}
	v := make([]byte, c)
	copy(v, sb.value[:sb.count])
	sb.value = v
}

// String returns the buffer's contents.
func (sb *StringBuffer) String() string {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return string(sb.value[:sb.count])
}

// Run appends a shared buffer to a new one while another thread erases and
// refills the shared buffer, and checks what was appended.
func Run(t testing.TB) {
	buffer := NewString("abc")

	done := make(chan struct{})
	go func() {
		defer close(done)
		buffer.Erase(0, 3)
		buffer.AppendString("abc")
	}()

	sb := New(16)
	sb.Append(buffer)
	<-done
	if got := sb.String(); got != "abc" && got != "" {
		t.Errorf("appended %q, want \"abc\" or \"\"", got)
	}
}
