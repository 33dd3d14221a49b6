// Package fixed is CB.aget-bug2 (see the parent directory) with the bug
// fixed: a worker advances its offset and the global byte count in one
// critical section, and the interrupt handler takes its snapshot under the
// same lock, so the resume log is always consistent.
package fixed

import (
	"sync"
	"testing"
)

const (
	contentLength = 35147
	part          = 17573
)

var chunks = [2][]int{
	{7842, 8192, 1539},
	{7838, 8192, 1544},
}

type thread struct {
	soffset, foffset, offset int
}

type download struct {
	mu       sync.Mutex // guards every worker's offset and bwritten
	wthread  []thread
	clength  int
	bwritten int
}

// Run downloads the file once with two workers while a helper thread
// delivers the interrupt, and checks the handler's snapshot.
func Run(t testing.TB) {
	d := &download{clength: contentLength}
	d.wthread = []thread{
		{soffset: 0, foffset: part, offset: 0},
		{soffset: part, foffset: contentLength, offset: part},
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.sigintHandler(t) }()
	for i := range d.wthread {
		wg.Add(1)
		go func(i int) { defer wg.Done(); d.httpGet(&d.wthread[i], chunks[i]) }(i)
	}
	wg.Wait()
	if d.bwritten != d.clength {
		t.Errorf("downloaded %d bytes, want %d", d.bwritten, d.clength)
	}
}

func (d *download) httpGet(w *thread, sizes []int) {
	for i := 0; ; i++ {
		d.mu.Lock()
		if w.offset >= w.foffset {
			d.mu.Unlock()
			return
		}
		written := sizes[i]
		if w.offset+written > w.foffset {
			written = w.foffset - w.offset
		}
		w.offset += written
		d.bwritten += written
		d.mu.Unlock()
	}
}

func (d *download) sigintHandler(t testing.TB) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bwritten == d.clength {
		return
	}
	sum := 0
	for _, w := range d.wthread {
		sum += w.offset - w.soffset
	}
	if sum != d.bwritten {
		t.Errorf("resume log inconsistent: workers' offsets account for %d bytes, bwritten is %d", sum, d.bwritten)
	}
}
