#include "_cgo_export.h"

// cgocbCall is a C frame between the Go caller and the Go callback.
void cgocbCall(void) { cgocbGo(); }
