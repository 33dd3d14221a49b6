// Package main holds an operation (op(k), its line marked "op k") in each
// place of a Go statement where no statement can go before it, and in
// one-line bodies, for TestPlace: a hold placed for each must compile and
// run before it. Not gofmt'd: users' code need not be.
package main

// log is what ran: op k as k, the hold inserted for op k as -k.
var log []int

func op(k int) int {
	log = append(log, k)
	return k
}

func opc(k int) chan int {
	op(k)
	c := make(chan int, 1)
	c <- k
	return c
}

type named bool

func tagless(x int) int {
	switch {
	case x < 0:
		return -1
	case op(1) > x: // op 1
		return 1
	}
	return 0
}

func initSwitch(x int) int {
	switch y := x + 1; {
	case y > 5, op(2) > y: // op 2
		return 1
	}
	return 0
}

func typeSwitch(v any) int {
	n := 0
L:
	switch w := v.(type) {
	case int: n += op(3) + w // op 3
	case string:
		n = op(4) // op 4
		break L
	}
	return n
}

func selectCase() int {
	n := 0
S:
	select {
	case v := <-opc(5): // op 5
		n = v
		break S
	}
	return n
}

func ifElse(x int) int {
	if x > 10 {
		return 0
	} else if named(op(6) > x) { // op 6
		return 1
	} else if y := op(7); y > x { // op 7
		return 2
	}
	return 3
}

func loops() int {
	n := 0
	for i := 0; i < op(8); i = i + op(9)/9 { // op 8, op 9
		n++
	}
	for i := 0; i < op(10)/5; i++ { n++ } // op 10
	return n
}

func tagged(x int) int {
	switch x {
	case 1:
		return 0
	case op(11) - 1, op(12): // op 11, op 12
		return 1
	}
	return 2
}

func main() {
	tagless(0)
	initSwitch(0)
	typeSwitch(1)
	typeSwitch("")
	selectCase()
	ifElse(5)
	ifElse(9)
	loops()
	tagged(12)
	for _, e := range log {
		println(e)
	}
}
