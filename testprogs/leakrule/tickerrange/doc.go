// Package tickerrange is a case of the leak rule: a goroutine ranging over a ticker nobody stops
package tickerrange
