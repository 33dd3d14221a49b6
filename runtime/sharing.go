package runtime

import (
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
)

// Several schedules in one subtest. Each schedule is a subtest, schedule_N,
// so that a failing one fails by itself, with its own output and name; but
// testing's t.Run costs a goroutine, a T and their bookkeeping, which in a
// short test is a third of what a schedule costs. So consecutive schedules
// that pass share the subtest of the first of them: the explorer hands
// each execution to the shared subtest's goroutine, which runs it as the
// execution's own subtest would have.
//
// What one execution leaves on the shared T must not reach the next, so
// the sharing ends after an execution that left anything there (tShared):
// a failure, a skip, output (t.Log through a helper), a cleanup
// registered with testing (t.TempDir, t.Setenv, t.Chdir register theirs;
// gosct runs the instrumented code's t.Cleanup inside the execution, not
// on the T), subtests, t.Parallel. The subtest ends right after such an
// execution, as its own would have, so its cleanups run at the same
// point; and a failing execution's output is its own, since the ones
// before it in the subtest wrote nothing.
//
// What differs from a subtest of its own: t.Name() is the first sharing
// schedule's (as go test -count gives every run of a test the same name),
// and a failing execution that was not the first to share its subtest
// fails the subtest named after the first (gosct's report and trace give
// its own number). With -v the output stays a subtest per schedule: no
// sharing then, nor when the T's layout is not the one expected (a future
// Go), nor for the search run one process per schedule.

// maxShared bounds the schedules that share a subtest: past a few dozen,
// the subtest's cost is spread thin.
const maxShared = 64

// sharedSubtest is an open shared subtest: the goroutine in its function
// runs the jobs it is sent.
type sharedSubtest struct {
	jobs  chan func(*testing.T) bool
	goOn  chan bool // after each job: whether the subtest takes another
	done  chan struct{}
	ok    bool // t.Run's result, once done is closed
	n     int  // schedules run in it
	probe *tShared
}

// sharing reports whether the exploration's schedules may share
// subtests.
//
//go:norace
func (x *explorer) sharing() bool {
	return !x.c.PerProcess && !testing.Verbose()
}

// runShared runs run, the subtest function of execution e, in the open
// shared subtest, or in a new one named name; it returns what t.Run would
// have.
//
//go:norace
func (x *explorer) runShared(name string, run func(*testing.T), e *execution) bool {
	b := x.shared
	if b == nil {
		b = &sharedSubtest{jobs: make(chan func(*testing.T) bool), goOn: make(chan bool), done: make(chan struct{})}
		x.shared = b
		started := make(chan struct{})
		go func() {
			defer close(b.done)
			b.ok = x.t.Run(name, func(t *testing.T) {
				b.probe = newTShared(t)
				close(started)
				for job := range b.jobs {
					goOn := job(t)
					b.goOn <- goOn
					if !goOn {
						return
					}
				}
			})
		}()
		select {
		case <-started:
		case <-b.done: // the subtest did not run (-test.failfast after a failure)
			x.shared = nil
			return b.ok
		}
	}
	b.jobs <- func(t *testing.T) bool {
		run(t)
		return b.probe != nil && !b.probe.left(t, e)
	}
	goOn := <-b.goOn
	b.n++
	if !goOn {
		<-b.done
		x.shared = nil
		return b.ok
	}
	if b.n >= maxShared {
		x.endShared()
	}
	return true
}

// endShared ends the open shared subtest, if any.
//
//go:norace
func (x *explorer) endShared() {
	if b := x.shared; b != nil {
		close(b.jobs)
		<-b.done
		x.shared = nil
	}
}

// tShared reads, through reflection, what an execution can leave on
// testing's T that the next one would see (testing keeps it unexported).
type tShared struct {
	mu          *sync.RWMutex
	output      *[]byte
	cleanups    *[]func()
	finished    *bool
	isParallel  *bool
	hasSub      *atomic.Bool
	tempDir     *string
	artifactDir *string
}

// newTShared is the reader of t's fields, nil when testing's layout is not
// the one expected.
//
//go:norace
func newTShared(t *testing.T) *tShared {
	c := fieldByName(reflect.ValueOf(t).Elem(), "common")
	if !c.IsValid() {
		return nil
	}
	var s tShared
	var ok [8]bool
	s.mu, ok[0] = fieldOf[sync.RWMutex](c, "mu")
	s.output, ok[1] = fieldOf[[]byte](c, "output")
	s.cleanups, ok[2] = fieldOf[[]func()](c, "cleanups")
	s.finished, ok[3] = fieldOf[bool](c, "finished")
	s.isParallel, ok[4] = fieldOf[bool](c, "isParallel")
	s.hasSub, ok[5] = fieldOf[atomic.Bool](c, "hasSub")
	s.tempDir, ok[6] = fieldOf[string](c, "tempDir")
	s.artifactDir, ok[7] = fieldOf[string](c, "artifactDir")
	for _, found := range ok {
		if !found {
			return nil
		}
	}
	if s.left(t, nil) {
		return nil // not the fresh T expected
	}
	return &s
}

// left reports whether execution e (nil: none yet) left anything on t,
// or ended in a way that must end its subtest.
//
//go:norace
func (s *tShared) left(t *testing.T, e *execution) bool {
	if e != nil && (e.bug != nil || e.abandoned || e.overtime || e.tooLong || e.oracle.lastReport.t != nil) {
		return true
	}
	if t.Failed() || t.Skipped() || s.hasSub.Load() {
		return true
	}
	s.mu.RLock()
	left := len(*s.output) > 0 || len(*s.cleanups) > 0 || *s.finished || *s.isParallel
	s.mu.RUnlock()
	// TempDir and ArtifactDir set these under locks of their own; the
	// execution is over.
	return left || *s.tempDir != "" || *s.artifactDir != ""
}
