// Package sleepblock is a case of the leak rule: a goroutine that sleeps 200 ms after the test, then blocks for ever on a send (issue class 4)
package sleepblock
