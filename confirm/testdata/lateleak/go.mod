module example.com/lateleak

go 1.22
