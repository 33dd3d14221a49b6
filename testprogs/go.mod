module github.com/gosct/gosct/testprogs

go 1.22
