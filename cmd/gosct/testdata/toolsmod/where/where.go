// Package where has a bug of each kind, for the test of the location that
// starts each bug report: the lines marked "want: KIND" are where the
// report of that kind may point.
package where
