module github.com/gosct/gosct

go 1.26.8

require (
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
