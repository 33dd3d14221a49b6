module example.com/passthru

go 1.22
