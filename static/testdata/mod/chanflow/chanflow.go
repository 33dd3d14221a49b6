// Package chanflow closes and sends on channels handed to functions and
// captured by closures.
package chanflow

func produce(out chan<- int) {
	out <- 1 // line 6
}

func stop(ch chan int) {
	close(ch) // line 10
}

func pipeline() {
	jobs := make(chan int, 1)
	results := make(chan int, 1)
	go produce(jobs)
	go func() {
		results <- 2 // line 18: results is never closed
	}()
	go func() {
		close(jobs) // line 21
	}()
	stop(jobs)
	<-results
}
