module example.com/gaps

go 1.24
