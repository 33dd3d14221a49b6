// Package broken does not compile: gosct must report the user's file:line.
package broken

// Value returns a string where an int is declared.
func Value() int {
	return "not an int"
}
