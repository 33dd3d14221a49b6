package fixed

// frame is one entry of a goroutine's recorded call stack.
type frame struct {
	fn   string
	line int
}

// stateCapture is the CHESS sample's state-capture bookkeeping: a vector,
// indexed by thread id, of per-thread call stacks. It is shared by all
// threads and not synchronised at all; this is where the bug is.
type stateCapture struct {
	stacks [][]frame
}

func newStateCapture() *stateCapture {
	// Sized for the owner and both stealers: enter never resizes.
	return &stateCapture{stacks: make([][]frame, numThreads, 100)}
}

// enter records a call of fn by thread tid. It grows the vector when it is
// too short for tid, with std::vector::resize semantics: resizing to a
// smaller length destroys the trailing stacks. Two threads can both see the
// vector too short and the one with the smaller id can then shrink it under
// the other.
func (s *stateCapture) enter(tid int, fn string) {
	if len(s.stacks) <= tid {
		s.resize(tid + 1)
	}
	s.stacks[tid] = append(s.stacks[tid], frame{fn: fn})
}

func (s *stateCapture) resize(n int) {
	old := s.stacks
	for i := n; i < len(old); i++ {
		old[i] = nil // destroy the element
	}
	grown := old[:n]
	for i := len(old); i < n; i++ {
		grown[i] = nil // value-initialise the new element
	}
	s.stacks = grown
}

// at records that tid reached line: a bounds-checked peek at the top of its
// own stack (vector::at in the original, which throws out_of_range; here the
// index panics).
func (s *stateCapture) at(tid, line int) {
	st := s.stacks[tid]
	st[len(st)-1].line = line
}

// exit pops the frame that the matching enter pushed.
func (s *stateCapture) exit(tid int) {
	st := s.stacks[tid]
	s.stacks[tid] = st[:len(st)-1]
}
