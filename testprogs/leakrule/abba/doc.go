// Package abba is a case of the leak rule: two goroutines each holding the mutex the other waits for
package abba
