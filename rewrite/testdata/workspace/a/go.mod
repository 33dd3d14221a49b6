module example.com/a

go 1.18

require example.com/b v0.0.0
