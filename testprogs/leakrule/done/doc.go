// Package done is a case of the leak rule: every goroutine exits after the test: no leak
package done
