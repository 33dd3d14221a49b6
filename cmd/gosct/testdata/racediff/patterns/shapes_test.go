package patterns

import (
	"context"
	"errors"
	"testing"
)

func TestChanFieldAssignVsRecv(t *testing.T) {
	s := &server{}
	race(func() {
		ch := s.stopCh
		_ = ch
	}, func() {
		s.stopCh = make(chan struct{})
	})
}

func TestChanFieldCloseVsAssign(t *testing.T) {
	s := &server{stopCh: make(chan struct{})}
	race(func() {
		close(s.stopCh)
	}, func() {
		s.stopCh = nil
	})
}

func TestSendVsClose(t *testing.T) {
	ch := make(chan int, 1)
	race(func() {
		ch <- 1
	}, func() {
		close(ch)
	})
}

func TestFuncFieldAssignVsCall(t *testing.T) {
	s := &server{onClose: func() {}}
	race(func() {
		s.onClose()
	}, func() {
		s.onClose = func() {}
	})
}

func TestFuncVarCaptured(t *testing.T) {
	handler := func() int { return 1 }
	race(func() {
		_ = handler()
	}, func() {
		handler = func() int { return 2 }
	})
}

func TestContextField(t *testing.T) {
	type job struct{ ctx context.Context }
	j := &job{ctx: context.Background()}
	race(func() {
		_ = j.ctx.Err()
	}, func() {
		j.ctx = context.TODO()
	})
}

func TestMapOfChannels(t *testing.T) {
	chans := map[string]chan int{}
	race(func() {
		chans["a"] = make(chan int)
	}, func() {
		_ = chans["a"]
	})
}

func TestInterfaceField(t *testing.T) {
	s := &server{}
	race(func() {
		s.err = errors.New("x")
	}, func() {
		_ = s.err != nil
	})
}

func TestStringField(t *testing.T) {
	s := &server{}
	race(func() {
		s.name = "a"
	}, func() {
		_ = len(s.name)
	})
}

func TestGlobalCounter(t *testing.T) {
	race(func() {
		global++
	}, func() {
		global++
	})
}

func TestPointerDeref(t *testing.T) {
	p := new(int)
	race(func() {
		*p = 1
	}, func() {
		_ = *p
	})
}

func TestClosureCounter(t *testing.T) {
	n := 0
	race(func() {
		n++
	}, func() {
		n++
	})
}

func TestClosureAssignRead(t *testing.T) {
	var v string
	race(func() {
		v = "set"
	}, func() {
		_ = v
	})
}

func TestStructCopyVsFieldWrite(t *testing.T) {
	p := &pair{}
	race(func() {
		p.b = 1
	}, func() {
		c := *p
		_ = c
	})
}

func TestStructAssignVsFieldRead(t *testing.T) {
	p := &pair{}
	race(func() {
		_ = p.a
	}, func() {
		*p = pair{a: 1, b: 2}
	})
}

func TestEmbeddedField(t *testing.T) {
	o := &outer{}
	race(func() {
		o.x = 1
	}, func() {
		_ = o.inner.x
	})
}

func TestEmbeddedPointerField(t *testing.T) {
	o := outerPtr{&inner{}}
	race(func() {
		o.x = 1
	}, func() {
		_ = o.x
	})
}

func TestEmbeddedCopyVsPromotedWrite(t *testing.T) {
	o := &outer{}
	race(func() {
		o.x = 2
	}, func() {
		in := o.inner
		_ = in
	})
}

func TestSliceElementShared(t *testing.T) {
	xs := make([]int, 4)
	race(func() {
		xs[1] = 1
	}, func() {
		_ = xs[1]
	})
}

func TestArrayElementThroughPointer(t *testing.T) {
	type buf struct{ arr [4]int }
	b := &buf{}
	race(func() {
		b.arr[2] = 1
	}, func() {
		_ = b.arr[2]
	})
}

func TestArrayCopyVsElementWrite(t *testing.T) {
	var arr [4]int
	race(func() {
		arr[3] = 1
	}, func() {
		c := arr
		_ = c
	})
}

func TestAppendShared(t *testing.T) {
	var xs []int
	race(func() {
		xs = append(xs, 1)
	}, func() {
		xs = append(xs, 2)
	})
}

func TestMapWriteVsRead(t *testing.T) {
	m := map[string]int{}
	race(func() {
		m["a"] = 1
	}, func() {
		_ = m["b"]
	})
}

func TestMapDeleteVsRange(t *testing.T) {
	m := map[string]int{"a": 1}
	race(func() {
		delete(m, "a")
	}, func() {
		for range m {
		}
	})
}

func TestGlobalMap(t *testing.T) {
	race(func() {
		table["k"] = 1
	}, func() {
		_ = table["k"]
	})
}

type counter struct{ n int }

func (c *counter) inc() { c.n++ }

func (c counter) get() int { return c.n }

func TestMethodValue(t *testing.T) {
	c := &counter{}
	inc := c.inc
	race(func() {
		inc()
	}, func() {
		c.inc()
	})
}

func TestMethodValueCopiesReceiver(t *testing.T) {
	c := &counter{}
	race(func() {
		c.n = 3
	}, func() {
		get := c.get
		_ = get
	})
}

func TestMutexOnOneSideOnly(t *testing.T) {
	var mu syncMutex
	n := 0
	race(func() {
		mu.Lock()
		n = 1
		mu.Unlock()
	}, func() {
		_ = n
	})
}

// One access racing with two earlier ones, on two words: two races, as
// Go's detector reports them.
func TestStructCopyVsTwoFieldWrites(t *testing.T) {
	p := &pair{}
	race(func() {
		p.a = 1
		p.b = 2
	}, func() {
		c := *p
		_ = c
	})
}
