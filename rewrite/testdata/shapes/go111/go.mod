module example.com/go111

go 1.11
