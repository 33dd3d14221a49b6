module example.com/oldloops

go 1.21
