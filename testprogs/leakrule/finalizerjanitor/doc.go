// Package finalizerjanitor is a case of the leak rule: a go-cache style janitor whose stop channel only a finalizer of the cache closes
package finalizerjanitor
