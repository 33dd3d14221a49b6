// Package cleanupdaemon is a case of the leak rule: a daemon looping on short timers, stopped in t.Cleanup
package cleanupdaemon
