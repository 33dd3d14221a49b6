module example.com/forward

go 1.22
