// Package a is a dependency of a go 1.12 module that brings in another
// (example.com/b), which the main module's go.mod does not list: before
// go 1.17 it need not.
package a

import "example.com/b"

// Twice returns twice b's value.
func Twice() int { return 2 * b.Value() }
