// Package sleeploop is a case of the leak rule: a goroutine sleeping in a loop nothing stops
package sleeploop
