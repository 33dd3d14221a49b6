package static

import (
	"strings"
	"testing"
)

const sequentialSrc = `package p

import "sync"

var global int

// square squares.
func square(n int) int {
	r := n
	r *= n
	return r
}

func shared(mu *sync.Mutex, ch chan int) int {
	x, y := 1, 2
	go func() { x++ }()
	p := &y
	mu.Lock()
	v := <-ch
	global = v
	var z int = *p
	return z
}

func args(wg *sync.WaitGroup, n int) {
	wg.Add(
		n)
	for i := 0; i < n; i++ {
		n--
	}
}
`

// Which lines of a file the syntax alone shows to hold no thread
// interaction: local arithmetic and control flow, comments; not calls,
// receives, globals, variables a closure captures or whose address is
// taken, nor the argument of a call that starts on an unchanged line.
func TestSequential(t *testing.T) {
	lineOf := func(text string) int {
		i := strings.Index(sequentialSrc, text)
		if i < 0 {
			t.Fatalf("no %q", text)
		}
		return strings.Count(sequentialSrc[:i], "\n") + 1
	}
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"\tr := n\n\tr *= n\n\treturn r", true},
		{"// square squares.", true},
		{"\tfor i := 0; i < n; i++ {\n\t\tn--", true},
		{"func square", false},      // the function's header
		{"\tx, y := 1, 2", false},   // x is captured, y's address taken
		{"\tmu.Lock()", false},      // a call
		{"\tv := <-ch", false},      // a receive
		{"\tglobal = v", false},     // a package-level variable
		{"\tvar z int = *p", false}, // a dereference
		{"\t\tn)", false},           // the argument of a call
		{"import \"sync\"", false},  // an import
		{"var global int", false},   // a package-level declaration
	} {
		from := lineOf(c.text)
		lines := []LineRange{{from, from + strings.Count(c.text, "\n")}}
		ok, why := Sequential("p.go", []byte(sequentialSrc), lines)
		if ok != c.ok {
			t.Errorf("%q (lines %v): sequential %v (%s), want %v", c.text, lines, ok, why, c.ok)
		}
		if !ok && why == "" {
			t.Errorf("%q: no reason given", c.text)
		}
	}
}
