module example.com/old116

go 1.16
