// Package ctxdeadline is a case of the leak rule: a goroutine waiting for a context whose one-hour deadline nobody cancels earlier
package ctxdeadline
