module example.com/cgomod

go 1.24
