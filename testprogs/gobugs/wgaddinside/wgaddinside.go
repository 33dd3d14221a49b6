// Package wgaddinside models an indexer that indexes documents in
// background goroutines, each of which calls wg.Add(1) itself. Flush waits
// on the WaitGroup, but a goroutine that has not started yet has not been
// counted, so Flush can return before every document is indexed.
package wgaddinside

import (
	"strings"
	"sync"
)

// Indexer counts the words of documents.
type Indexer struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	index map[string]int
}

// NewIndexer returns an empty indexer.
func NewIndexer() *Indexer { return &Indexer{index: make(map[string]int)} }

// AddAsync indexes doc in the background.
func (ix *Indexer) AddAsync(name, doc string) {
	go ix.indexDoc(name, doc)
}

// indexDoc runs in its own goroutine and registers itself with ix.wg.
func (ix *Indexer) indexDoc(name, doc string) {
	ix.wg.Add(1)
	defer ix.wg.Done()
	n := WordCount(doc)
	ix.mu.Lock()
	ix.index[name] = n
	ix.mu.Unlock()
}

// Flush waits for pending documents and returns a copy of the index.
func (ix *Indexer) Flush() map[string]int {
	ix.wg.Wait()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	out := make(map[string]int, len(ix.index))
	for k, v := range ix.index {
		out[k] = v
	}
	return out
}

// WordCount returns the number of words of doc.
func WordCount(doc string) int { return len(strings.Fields(doc)) }
