// Package cgocb calls Go back from C, so that the runtime's tests can
// record a goroutine's stack inside a cgo callback, where the frame
// pointer chain goes through C frames and another stack.
package cgocb

// void cgocbCall(void);
import "C"

var fn func()

//export cgocbGo
func cgocbGo() { fn() }

// Call runs f inside a cgo callback: Go calls C, which calls Go back. Not
// safe for concurrent use.
func Call(f func()) {
	fn = f
	C.cgocbCall()
}
