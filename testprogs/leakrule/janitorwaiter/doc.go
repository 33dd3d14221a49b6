// Package janitorwaiter is a case of the leak rule: a goroutine waiting on the stop channel of a live janitor (reachable by the janitor: Go's detector and gosct do not report it)
package janitorwaiter
