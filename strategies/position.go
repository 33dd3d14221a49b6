package strategies

// A Frame is one frame of a goroutine's stack, in the user's source: the
// file (as the compiler saw it, an absolute path) and the line.
type Frame struct {
	File string
	Line int
}

// A Locator tells a strategy where the goroutines of a Kind Goroutine point
// stand. The runtime provides one (Point.Where) only to a strategy that
// asks for it (Locating): recording stacks costs at every scheduling point.
type Locator interface {
	// Where describes goroutine id (one of the point's choices). op is
	// its pending operation as the runtime names it ("chan send",
	// "write", "mutex lock"; "start" for a goroutine that has not run
	// yet). frames is its stack in user code, innermost first: the frame
	// that called the operation, then its callers; for a goroutine not
	// started yet, the frame of the go statement that created it. The
	// frames belong to the runtime and are valid until Next returns.
	// moves counts the scheduling points the goroutine has reached: its
	// position changes only when moves does.
	Where(id int) (op string, frames []Frame, moves int)
}

// Locating is implemented by strategies that read goroutine positions
// (guided search). The runtime asks before each execution, after
// NewExecution: when Locates returns true, it records the stack of every
// goroutine at its scheduling points and sets Point.Where at the Kind
// Goroutine points of that execution. Other strategies pay nothing.
type Locating interface {
	Locates() bool
}
