// Package exits ends the process on one outcome of a race, as code that
// calls log.Fatal on an error path does.
package exits

import "os"

// First runs two senders and exits the process when the second one's value
// arrives first.
func First() int {
	ch := make(chan int, 2)
	go func() { ch <- 1 }()
	go func() { ch <- 2 }()
	v := <-ch
	if v == 2 {
		os.Exit(3)
	}
	return v + <-ch
}
