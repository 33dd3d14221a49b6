package chans

type Named chan int

type MyErr struct{}

func (*MyErr) Error() string { return "e" }

func Ops(ch chan int, ro <-chan int, so chan<- int, errs chan error) (int, bool) {
	c := make(chan string, 3)
	n := make(Named)
	_ = n
	ch <- 1
	so <- 2
	errs <- &MyErr{}
	errs <- nil
	v := <-ch
	w, ok := <-ro
	var x, ok2 = <-ro
	<-ch
	_ = len(ch) + cap(ch) + len(c)
	close(ch)
	if v := <-ro; v > 0 {
		return v, ok2
	}
	return v + w + x + <-ro, ok
}

func Ranges(ch chan int) int {
	sum := 0
	for v := range ch {
		sum += v
	}
	for range ch {
	}
	var last int
Outer:
	for last = range ch {
		if last > 3 {
			continue Outer
		}
		break Outer
	}
	return sum + last
}
