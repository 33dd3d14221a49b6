module example.com/mockclock

go 1.21
