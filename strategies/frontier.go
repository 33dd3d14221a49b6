package strategies

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// spillBytes is how much of one bound's queue stays in memory before the
// rest goes to a temporary file. A variable so that tests can make it small.
var spillBytes = 4 << 20

// frontier holds the items of iterative bounding that wait for a higher
// bound: one FIFO queue per bound. An item is a handful of bytes (a delta is
// two varints), but there are about as many items as schedules in the next
// bound, so a queue beyond spillBytes continues in an unlinked temporary
// file: the search's memory stays O(depth) however long it runs.
type frontier struct {
	q []queue // by bound
}

type queue struct {
	mem  []byte // encoded items; those before rd were popped
	rd   int
	n    int      // items waiting
	file *os.File // items after mem's, once spilled
	wOff int64
	rOff int64
	hdr  [binary.MaxVarintLen64]byte
	buf  []byte
}

func (f *frontier) queue(bound int) *queue {
	for len(f.q) <= bound {
		f.q = append(f.q, queue{})
	}
	return &f.q[bound]
}

// push appends item to the queue of bound.
func (f *frontier) push(bound int, item []delta) {
	q := f.queue(bound)
	q.n++
	if q.file == nil && len(q.mem)-q.rd+encodedLen(item) > spillBytes {
		q.spill()
	}
	if q.file == nil {
		q.mem = appendItem(q.mem, item)
		return
	}
	q.buf = appendItem(q.buf[:0], item)
	if _, err := q.file.WriteAt(q.buf, q.wOff); err != nil {
		panic(fmt.Sprintf("gosct: writing the search frontier: %v", err))
	}
	q.wOff += int64(len(q.buf))
}

// spill moves the queue's next pushes to a temporary file. The file is
// unlinked at once so that nothing is left behind if the process dies; if
// no file can be made the queue stays in memory.
func (q *queue) spill() {
	f, err := os.CreateTemp("", "gosct-frontier-*")
	if err != nil {
		return
	}
	os.Remove(f.Name())
	q.file = f
}

// pop removes the first item of bound's queue into dst.
func (f *frontier) pop(bound int, dst []delta) ([]delta, bool) {
	if bound >= len(f.q) || f.q[bound].n == 0 {
		return dst, false
	}
	q := &f.q[bound]
	q.n--
	if q.rd < len(q.mem) {
		item, n := decodeItem(q.mem[q.rd:], dst)
		q.rd += n
		if q.rd == len(q.mem) {
			q.mem, q.rd = q.mem[:0], 0
		} else if q.rd > 1<<16 && q.rd > len(q.mem)/2 {
			q.mem = q.mem[:copy(q.mem, q.mem[q.rd:])]
			q.rd = 0
		}
		return item, true
	}
	item, n, err := q.readAt(q.rOff, dst)
	if err != nil {
		panic(fmt.Sprintf("gosct: reading the search frontier: %v", err))
	}
	q.rOff += n
	if q.rOff == q.wOff {
		q.file.Close()
		q.file, q.rOff, q.wOff = nil, 0, 0
	}
	return item, true
}

// readAt decodes the item at off in the queue's file and returns its size.
func (q *queue) readAt(off int64, dst []delta) ([]delta, int64, error) {
	h, err := q.file.ReadAt(q.hdr[:], off)
	if err != nil && err != io.EOF {
		return dst, 0, err
	}
	size, hn := binary.Uvarint(q.hdr[:h])
	if hn <= 0 {
		return dst, 0, fmt.Errorf("corrupt item at offset %d", off)
	}
	total := hn + int(size)
	if cap(q.buf) < total {
		q.buf = make([]byte, total)
	}
	q.buf = q.buf[:total]
	if _, err := q.file.ReadAt(q.buf, off); err != nil {
		return dst, 0, err
	}
	item, _ := decodeItem(q.buf, dst)
	return item, int64(total), nil
}

// items returns the items waiting at bound, leaving them in the queue.
func (f *frontier) items(bound int) [][]delta {
	if bound >= len(f.q) {
		return nil
	}
	q := &f.q[bound]
	var out [][]delta
	for off := q.rd; off < len(q.mem); {
		item, n := decodeItem(q.mem[off:], nil)
		out = append(out, item)
		off += n
	}
	for off := q.rOff; q.file != nil && off < q.wOff; {
		item, n, err := q.readAt(off, nil)
		if err != nil {
			panic(fmt.Sprintf("gosct: reading the search frontier: %v", err))
		}
		out = append(out, item)
		off += n
	}
	return out
}

// bounds returns one more than the highest bound with a queue.
func (f *frontier) bounds() int { return len(f.q) }

// close drops every queue and its file.
func (f *frontier) close() {
	for i := range f.q {
		if f.q[i].file != nil {
			f.q[i].file.Close()
		}
	}
	f.q = nil
}

// An item is encoded as its size, then per delta the distance from the
// previous delta's point and the rank, all uvarints.
func appendItem(b []byte, item []delta) []byte {
	b = binary.AppendUvarint(b, uint64(payloadLen(item)))
	prev := 0
	for _, d := range item {
		b = binary.AppendUvarint(b, uint64(d.Pos-prev))
		b = binary.AppendUvarint(b, uint64(d.Rank))
		prev = d.Pos
	}
	return b
}

func payloadLen(item []delta) int {
	n, prev := 0, 0
	for _, d := range item {
		n += uvarintLen(uint64(d.Pos-prev)) + uvarintLen(uint64(d.Rank))
		prev = d.Pos
	}
	return n
}

func encodedLen(item []delta) int {
	p := payloadLen(item)
	return uvarintLen(uint64(p)) + p
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// decodeItem decodes the item at the start of b into dst and returns it
// with the number of bytes read. b was written by appendItem.
func decodeItem(b []byte, dst []delta) ([]delta, int) {
	size, n := binary.Uvarint(b)
	end := n + int(size)
	dst = dst[:0]
	prev := 0
	for i := n; i < end; {
		dp, a := binary.Uvarint(b[i:])
		r, c := binary.Uvarint(b[i+a:])
		i += a + c
		prev += int(dp)
		dst = append(dst, delta{prev, int(r)})
	}
	return dst, end
}
