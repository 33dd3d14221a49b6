module example.com/uncmod

go 1.21

require example.com/mockclock v0.0.0

replace example.com/mockclock => ./mockclock
