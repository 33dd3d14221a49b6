// Package longsleep is a case of the leak rule: a goroutine sleeping an hour after the test, then exiting
package longsleep
