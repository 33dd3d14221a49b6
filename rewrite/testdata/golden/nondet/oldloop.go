//go:build go1.21

package nondet

// Before go1.22 a range loop's variables are declared once, outside it:
// the rewritten loop keeps them so (closures see the last entry).
func OldLoopVars(m map[string]int) []func() string {
	var fs []func() string
	for k, v := range m {
		fs = append(fs, func() string { return k })
		_ = v
	}
	return fs
}
