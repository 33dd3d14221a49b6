module example.com/racemod

go 1.21
