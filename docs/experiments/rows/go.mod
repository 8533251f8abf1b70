module example.com/rows

go 1.26
