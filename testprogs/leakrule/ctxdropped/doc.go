// Package ctxdropped is a case of the leak rule: a retry loop on a context whose cancel function the test dropped: nobody can cancel it
package ctxdropped
