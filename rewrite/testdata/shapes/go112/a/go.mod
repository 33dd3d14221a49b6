module example.com/a

go 1.12

require example.com/b v0.0.0
