// Package retryloops is a case of the leak rule: two retry loops nothing stops, whose attempts take longer than their short sleeps
package retryloops
