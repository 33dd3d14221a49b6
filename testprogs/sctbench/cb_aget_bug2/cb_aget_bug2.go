// Package cb_aget_bug2 is a Go port of SCTBench's CB.aget-bug2: the
// interrupt handler of the aget download accelerator saves a resume log from
// a snapshot of the download workers' progress that is not atomic with
// respect to the workers' updates.
//
// The network and file I/O of the original are gone; as in SCTBench each
// worker "receives" a fixed list of chunk sizes (the sizes the recorded
// server responses produce) and the Ctrl-C handler runs at once in its own
// thread, so the scheduler decides when the interrupt happens.
package cb_aget_bug2

import (
	"sync"
	"testing"
)

// contentLength is the size of the downloaded file (the modelled HEAD
// response); it is split into two parts at part.
const (
	contentLength = 35147
	part          = 17573
)

// chunks are the body bytes each worker writes per read, from the recorded
// responses: the first read also carries the HTTP header, hence the odd size.
var chunks = [2][]int{
	{7842, 8192, 1539},
	{7838, 8192, 1544},
}

// thread is one download worker's record, read by the interrupt handler.
type thread struct {
	soffset int // first byte of this worker's part
	foffset int // one past its last byte
	offset  int // next byte to write
	done    bool
}

// download is the state shared by main, the workers and the handler.
type download struct {
	wthread  []thread // nil until main allocates it
	clength  int
	bwritten int // bytes written so far, guarded by bwrittenMu (writers only)

	bwrittenMu sync.Mutex
}

// Run downloads the file once with two workers while a helper thread
// delivers the interrupt, and reports the handler's failed consistency check.
func Run(t testing.TB) {
	d := &download{clength: contentLength}
	d.wthread = []thread{
		{soffset: 0, foffset: part},
		{soffset: part, foffset: contentLength},
	}
	for i := range d.wthread {
		d.wthread[i].offset = d.wthread[i].soffset
	}

	helperDone := make(chan struct{})
	go func() {
		defer close(helperDone)
		d.sigintHandler(t)
	}()

	workers := make([]chan struct{}, len(d.wthread))
	for i := range d.wthread {
		workers[i] = make(chan struct{})
		go func(i int) {
			defer close(workers[i])
			d.httpGet(&d.wthread[i], chunks[i])
		}(i)
	}
	for _, w := range workers {
		<-w
	}
	// In aget the handler ends the process; here main waits for it after
	// its own work, which orders nothing between the threads.
	<-helperDone
}

// httpGet is a worker: it writes its part chunk by chunk, advancing its
// offset and then, under the lock, the global byte count.
func (d *download) httpGet(w *thread, sizes []int) {
	written := sizes[0]
	w.offset = w.soffset + written
	d.addWritten(written)
	for i := 1; w.offset < w.foffset; i++ {
		written = sizes[i]
		if w.offset+written > w.foffset {
			written = w.foffset - w.offset
		}
		w.offset += written
		d.addWritten(written)
	}
	w.done = true
}

func (d *download) addWritten(n int) {
	d.bwrittenMu.Lock()
	d.bwritten += n
	d.bwrittenMu.Unlock()
}

// sigintHandler is aget's Ctrl-C handler: it saves a resume log made of the
// workers' records and the byte count, read without the lock, and checks
// that they agree (the check SCTBench added in place of aget's external
// verifier).
func (d *download) sigintHandler(t testing.TB) {
	if d.wthread == nil {
		return
	}
	if d.bwritten == d.clength {
		return // download already complete: nothing to save
	}
	snapshot := make([]thread, len(d.wthread))
	for i := range d.wthread {
		snapshot[i].soffset = d.wthread[i].soffset
		snapshot[i].foffset = d.wthread[i].foffset
		snapshot[i].offset = d.wthread[i].offset
	}
	logged := d.bwritten
	sum := 0
	for _, s := range snapshot {
		sum += s.offset - s.soffset
	}
	if sum != logged {
		t.Errorf("resume log inconsistent: workers' offsets account for %d bytes, bwritten is %d", sum, logged)
	}
}
