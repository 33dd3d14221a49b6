//go:build !race

package strategies

const raceBuild = false
