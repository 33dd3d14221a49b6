// Package waitforever is a case of the leak rule: a goroutine waiting on a WaitGroup nobody calls Done on
package waitforever
