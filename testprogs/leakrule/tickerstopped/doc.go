// Package tickerstopped is a case of the leak rule: a goroutine reading a short ticker, stopped with the ticker before the test returns
package tickerstopped
