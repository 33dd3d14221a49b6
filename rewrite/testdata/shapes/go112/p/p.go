// Package p is in a go 1.12 module (sony/gobreaker v1.0.0's shape): the
// overlay raises its go line, which then needs the indirect requirement.
package p

import "example.com/a"

// Answer is computed by the dependencies.
func Answer() int { return a.Twice() }
