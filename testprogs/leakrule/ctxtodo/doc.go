// Package ctxtodo is a case of the leak rule: a retry loop selecting on time.After and the Done of context.TODO() (issue class 5)
package ctxtodo
