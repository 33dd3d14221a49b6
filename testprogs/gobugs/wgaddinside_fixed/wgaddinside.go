// Package wgaddinside is the fixed version: AddAsync counts the goroutine
// before starting it.
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
	ix.wg.Add(1)
	go func() {
		defer ix.wg.Done()
		n := WordCount(doc)
		ix.mu.Lock()
		ix.index[name] = n
		ix.mu.Unlock()
	}()
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
