package runtime

import "testing"

// Test helpers often take a testing.TB (or an interface of their own that
// *testing.T implements) rather than a *testing.T. The rewriter cannot
// know the dynamic type, so these hooks look at it: a *testing.T gets the
// treatment of Cleanup and T; anything else (a *testing.B, a fake) gets
// the plain call.

// CleanupTB replaces tb.Cleanup(f) on an interface value.
//
//go:norace
func CleanupTB(tb interface{ Cleanup(func()) }, f func()) {
	if t, ok := tb.(*testing.T); ok && t != nil {
		Cleanup(t, f)
		return
	}
	tb.Cleanup(f)
}

// TB precedes a reporting call (Log, Error, Fatal, Skip and variants)
// through an interface value or a type parameter: gosct.TB(tb).Log(...).
// It returns tb unchanged.
//
//go:norace
func TB[I any](tb I) I {
	if t, ok := any(tb).(*testing.T); ok && t != nil {
		T(t)
	}
	return tb
}
