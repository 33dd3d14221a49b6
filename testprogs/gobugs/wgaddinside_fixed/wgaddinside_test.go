package wgaddinside

import (
	"runtime"
	"testing"
)

func TestFlushSeesEveryDocument(t *testing.T) {
	docs := map[string]string{
		"doc0": "lorem ipsum",
		"doc1": "lorem ipsum dolor sit",
		"doc2": "lorem ipsum dolor sit amet consectetur",
	}
	ix := NewIndexer()
	for name, doc := range docs {
		ix.AddAsync(name, doc)
	}
	for i := 0; i < len(docs); i++ {
		runtime.Gosched() // let the indexers start, as the original test did
	}
	got := ix.Flush()
	for name, doc := range docs {
		if want := WordCount(doc); got[name] != want {
			t.Errorf("index[%s] = %d, want %d", name, got[name], want)
		}
	}
}
