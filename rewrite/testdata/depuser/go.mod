module example.com/depuser

go 1.22

require golang.org/x/sync v0.24.0
