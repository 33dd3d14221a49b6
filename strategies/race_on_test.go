//go:build race

package strategies

// raceBuild scales down the randomized tests under the race detector,
// which runs them several times slower.
const raceBuild = true
