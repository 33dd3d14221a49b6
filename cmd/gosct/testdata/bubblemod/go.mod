module example.com/bubblemod

go 1.25
