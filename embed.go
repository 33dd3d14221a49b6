// Package gosct is the root of the gosct module. It only carries the
// source of the packages linked into instrumented test binaries, so that
// an installed gosct command can unpack them next to the user's module
// (see package rewrite) without its source tree being around.
package gosct

import "embed"

// Source holds the files (Go and assembly) of runtime/, strategies/, replay/ and
// internal/wire/. It may include _test.go files; the unpacker skips them.
//
//go:embed runtime/* strategies/* replay/* internal/wire/*
var Source embed.FS
