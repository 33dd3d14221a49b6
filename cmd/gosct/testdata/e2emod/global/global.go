// Package global keeps a package-level registry that refuses a name twice,
// as http.HandleFunc or expvar.Publish do: a test that registers can run
// only once per process.
package global

var registry = map[string]func() int{}

// Register adds f under name; a second registration of a name panics.
func Register(name string, f func() int) {
	if _, dup := registry[name]; dup {
		panic("global: " + name + " registered twice")
	}
	registry[name] = f
}

// Call runs the function registered under name.
func Call(name string) int { return registry[name]() }
