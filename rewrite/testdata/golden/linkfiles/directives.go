package linkfiles

import _ "unsafe" // go:linkname

// The directives of clock.go's functions: Go takes a //go:linkname from
// any file of the package, whichever declares the function.

//go:linkname now time.now
//go:linkname nano runtime.nanotime
