// Package lockforever is a case of the leak rule: a goroutine blocked on a mutex left locked by the test
package lockforever
