module example.com/racediff

go 1.24
