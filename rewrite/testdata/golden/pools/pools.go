package pools

import (
	"bytes"
	"sync"
)

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type S struct{ p sync.Pool }

func Use(s *S) string {
	b := bufs.Get().(*bytes.Buffer)
	defer bufs.Put(b)
	b.Reset()
	b.WriteString("x")
	s.p.Put(1)
	_ = s.p.Get()
	get := s.p.Get
	_ = get()
	return b.String()
}

// pooled holds a pooled buffer in a field, as codecs do (go-msgpack's
// bytesBufPooler): the Put's argument is a shared read, instrumented
// before the Put is, and the Put must still happen before the Get.
type pooled struct {
	pool *sync.Pool
	buf  any
}

func (z *pooled) release() {
	z.pool.Put(z.buf)
	z.pool, z.buf = nil, nil
}

func Maps(m *sync.Map) {
	m.Store("a", 1)
	m.LoadOrStore("b", 2)
	m.LoadAndDelete("a")
	m.Delete("b")
	m.Swap("c", 3)
	m.CompareAndSwap("c", 3, 4)
	m.CompareAndDelete("c", 4)
	m.Range(func(k, v any) bool { return true })
	m.Clear()
}
