module example.com/uncmod

go 1.21

require (
	example.com/linkclockdep v0.0.0
	example.com/mockclock v0.0.0
)

replace example.com/mockclock => ./mockclock

replace example.com/linkclockdep => ./linkclockdep
