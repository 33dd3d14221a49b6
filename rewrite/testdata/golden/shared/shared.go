package shared

import "sync"

var counter int
var flag bool
var table = map[string]int{}

type T struct {
	n    int
	arr  [4]int
	next *T
}

func Inc() {
	counter++
	counter += 2
	counter = counter * 2
	table["a"] = counter
	_ = table["a"]
	if v, ok := table["b"]; ok {
		counter = v
	}
}

func Spin() {
	for !flag {
	}
}

func Ptr(p *T, s []int) int {
	p.n++
	p.arr[1] = 3
	p.next.n = p.n
	*(&p.n) = 4
	local := 0
	local++
	s[0] = local
	return p.n + s[0] + local
}

func Closure() int {
	x := 0
	y := 0
	done := make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	<-done
	y++
	return x + y + len([3]int{})
}

const K = len("abc")

func Consts(a [3]int) int {
	var arr [3]int
	return K + len(arr) + len(a)
}

func CommaOK(k string) bool {
	v, ok := table[k]
	return ok && v > 0
}

func next() int { return 1 }

func OpAssignCall() {
	counter += next()
}

var res int
var resErr error

// An assignment of several variables from a call (a pool's Acquire)
// writes them when the call has returned, which may have waited for
// another goroutine's release: the variables' Writes come after the
// statement. A location whose address is computed (p.n) keeps its Write
// before it.
func AssignFromCall(acquire func() (int, error), p *T) {
	res, resErr = acquire()
	p.n, resErr = acquire()
}

// Literals called where they stand run in their goroutine: what they
// capture stays unshared (and on the stack, as under go test), unless a
// literal inside them reaches another goroutine (z).
func InPlace(ch chan int) (n int) {
	token := 1
	returned := false
	defer func() {
		if !returned {
			n = token
		}
	}()
	func() { token++ }()
	z := 0
	defer func() {
		go func() { z++ }()
	}()
	returned = true
	return token + z
}

// A captured variable that nothing writes after its definition (ch, wg,
// in, the parameter k) cannot race: its reads are left alone. One written
// again (a redefinition by :=, err), a range clause's (v), a named result
// (out) or one whose address is taken (addr) stays shared.
func Immutable(k int, in []int, get func() (int, error)) (out int) {
	ch := make(chan int, 1)
	wg := new(sync.WaitGroup)
	n, err := get()
	m, err := get()
	addr := 0
	p := &addr
	for _, v := range in {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- k + v + n + m + len(in) + addr + out
			_ = err
		}()
	}
	wg.Wait()
	*p = 1
	return <-ch
}

type inner struct{ n int }

func (i inner) get() int { return i.n }

type outer struct{ *inner }

// A value-receiver method promoted through an embedded pointer copies the
// memory the pointer reaches, shared even where the local is not.
func ThroughEmbeddedPointer(p *inner) int {
	v := outer{p}
	return v.get()
}
