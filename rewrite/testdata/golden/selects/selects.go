package selects

func Select(a, b chan int, c chan<- string, d <-chan error) (int, error) {
	var x int
	var err error
	select {
	case v := <-a:
		x = v
	case v, ok := <-b:
		if !ok {
			return 0, nil
		}
		x = v
	case c <- "hi":
	case err = <-d:
	case <-a:
	default:
	}
Loop:
	for {
		select {
		case v := <-a:
			if v == 0 {
				break Loop
			}
			continue Loop
		case b <- x:
			break
		}
	}
	var nilch chan int
	select {
	case <-nilch:
	default:
	}
	return x, err
}

func Block() {
	select {}
}

func Terminating(a chan int) int {
	select {
	case v := <-a:
		return v
	case a <- 1:
		return 0
	}
}

func Forever() int {
	select {}
}

func Goto(a chan int) int {
	n := 0
Again:
	select {
	case v := <-a:
		n += v
		if n < 10 {
			goto Again
		}
	}
	return n
}
