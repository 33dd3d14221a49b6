//go:build !gosctshape

package p

const weight = 100
