module example.com/toolsmod

go 1.22
