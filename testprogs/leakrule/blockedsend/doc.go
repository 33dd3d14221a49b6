// Package blockedsend is a case of the leak rule: a goroutine blocked for ever on a send nobody receives
package blockedsend
