module example.com/e2emod

go 1.21
