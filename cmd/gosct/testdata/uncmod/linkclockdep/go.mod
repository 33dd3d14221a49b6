module example.com/linkclockdep

go 1.21
