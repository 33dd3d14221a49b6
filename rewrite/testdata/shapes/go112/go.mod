module example.com/go112

go 1.12

require example.com/a v0.0.0

replace (
	example.com/a => ./a
	example.com/b => ./b
)
