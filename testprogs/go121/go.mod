module github.com/gosct/gosct/testprogs/go121

go 1.21
