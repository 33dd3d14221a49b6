package gostmt

import "sync"

type W struct{ ch chan int }

func (w *W) run(n int) { w.ch <- n }

func two() (int, string) { return 1, "a" }

func take(n int, s string) {}

func vari(xs ...int) {}

func Start(w *W, f func(int), xs []int) {
	var wg sync.WaitGroup
	go func() {}()
	go func(i int) {}(3)
	go w.run(1)
	go f(len(xs))
	go take(two())
	go vari(xs...)
	go wg.Wait()
	go close(w.ch)
	go println("x")
	var mu sync.Mutex
	mu.Lock()
	go mu.Unlock()
	defer mu.Lock()
	defer close(w.ch)
}
