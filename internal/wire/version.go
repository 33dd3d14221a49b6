package wire

// Version is gosct's version: `gosct version` prints it and every trace
// records it. It is set here only, and raised with each release, before
// the release is tagged.
const Version = "v0.1.0-dev"
