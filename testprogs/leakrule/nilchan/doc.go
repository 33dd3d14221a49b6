// Package nilchan is a case of the leak rule: a goroutine blocked on a nil channel
package nilchan
