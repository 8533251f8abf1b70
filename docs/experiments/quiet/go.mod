module example.com/quiet

go 1.24
