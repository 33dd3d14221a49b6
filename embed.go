// Package gosct is the root of the gosct module. It only carries the
// source of the packages linked into instrumented test binaries, so that
// an installed gosct command can unpack them next to the user's module
// (see package rewrite) without its source tree being around.
package gosct

import "embed"

// Source holds the non-test Go and assembly files of runtime/, strategies/,
// replay/ and internal/wire/: the packages an instrumented test binary
// links. The directives below are the one list of those folders (package
// rewrite reads it back from Source).
//
// go:embed cannot exclude files, and each pattern must match at least one
// file, so the patterns pick non-test files by their last letters: a stem
// not ending in "t", or ending in "t" but not in "st", and the file named
// test.go. A new file whose name no pattern takes (a stem ending in "st"
// other than "test", say) fails TestSourceHoldsWhatTheRewriterNeeds,
// which names the pattern to add.
//
//go:embed runtime/*[^t].go runtime/*[^s]t.go runtime/test.go runtime/*.s
//go:embed strategies/*[^t].go strategies/*[^s]t.go
//go:embed replay/*[^t].go
//go:embed internal/wire/*[^t].go
var Source embed.FS
