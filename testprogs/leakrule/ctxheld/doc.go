// Package ctxheld is a case of the leak rule: a retry loop that holds, and may call, the cancel function of its own context: it could stop itself
package ctxheld
