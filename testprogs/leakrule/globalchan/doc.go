// Package globalchan is a case of the leak rule: a goroutine blocked on a package-level channel nobody uses (Go's detector: reachable from a global, not leaked)
package globalchan
