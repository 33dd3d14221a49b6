module example.com/olduser

go 1.22

require example.com/olddep v0.0.0

replace example.com/olddep => ./dep
