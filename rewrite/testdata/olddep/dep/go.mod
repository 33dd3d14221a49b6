module example.com/olddep

go 1.13
