package patterns

import (
	"sync"
	"testing"
	"time"
)

func namedResult() (err error) {
	go func() {
		err = nil
	}()
	time.Sleep(time.Millisecond)
	return
}

func TestBareReturnReadsNamedResult(t *testing.T) {
	_ = namedResult()
	time.Sleep(time.Millisecond)
}

func namedWritten() (n int) {
	go func() {
		_ = n
	}()
	time.Sleep(time.Millisecond)
	return 5
}

func TestReturnWritesNamedResult(t *testing.T) {
	_ = namedWritten()
	time.Sleep(time.Millisecond)
}

// `return n` where n is the result itself is a self-assignment, which the
// compiler drops: only the read remains, and reads do not race.
func namedReturnedItself() (n int) {
	go func() {
		_ = n
	}()
	time.Sleep(time.Millisecond)
	return n
}

func TestReturnItselfIsNoWrite(t *testing.T) {
	_ = namedReturnedItself()
	time.Sleep(time.Millisecond)
}

func TestRangeAssignToField(t *testing.T) {
	s := &server{}
	xs := []int{1, 2}
	race(func() {
		_ = s.count
	}, func() {
		for s.count = range xs {
		}
	})
}

// A Go 1.22 loop: every iteration has its own i, copied from the last
// one's before the post statement; a goroutine writing the last one's
// races with the copy.
func TestNewLoopVarCopy(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			i = 10
			wg.Done()
		}()
		time.Sleep(time.Millisecond)
	}
	wg.Wait()
}

func TestSliceParameter(t *testing.T) {
	xs := make([]int, 2)
	race(func() {
		fill(xs)
	}, func() {
		fill(xs)
	})
}

func fill(dst []int) {
	dst[0] = 1
}

func TestCopyIntoShared(t *testing.T) {
	dst := make([]int, 2)
	race(func() {
		copy(dst, []int{1, 2})
	}, func() {
		_ = dst[0]
	})
}

func TestMapLen(t *testing.T) {
	m := map[int]int{}
	race(func() {
		m[1] = 1
	}, func() {
		_ = len(m)
	})
}
