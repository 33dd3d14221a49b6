module example.com/golden

go 1.22
