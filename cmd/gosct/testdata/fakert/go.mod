module example.com/fakert

go 1.21
